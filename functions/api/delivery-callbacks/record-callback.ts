import { InvalidSignatureError } from '#core/errors';
import { meta } from '#api/pipeline/responses';
import type { OperationResult } from '#api/operation';

export type { CallbackSource, DeliveryCallback } from '#services/delivery-callback';
export { applyDeliveryCallback } from '#services/delivery-callback';

/** The refusal of every bad, missing or stale signature (and of a callback whose secret is not configured). */
export const invalidSignature = (): InvalidSignatureError =>
  new InvalidSignatureError('The callback signature is missing, invalid or outside the allowed time window.');

/** A provider time as ISO 8601, else `fallback` (our receipt time). */
export function isoOr(value: unknown, fallback: string): string {
  const date = typeof value === 'number' ? new Date(value * 1000) : typeof value === 'string' ? new Date(value) : undefined;
  return date !== undefined && !Number.isNaN(date.getTime()) ? date.toISOString() : fallback;
}

/** `{ data: { received: true }, meta }`, the answer to every accepted callback (known message or not). */
export const received = (requestId: string, now: Date, merchantId?: string): OperationResult => ({
  body: { data: { received: true }, meta: meta(requestId, merchantId, now) },
});
