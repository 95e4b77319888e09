import type { Psp } from '#core/providers';
import { toMinorUnits } from '#core/money';
import { type NormalisedWebhookEvent, WebhookBodyFormatError, WebhookPayloadError } from './types';

/**
 * Reading verified provider bodies: small, total accessors over parsed JSON so each module states
 * the fields it uses by their documented names, and one place turns "not what the provider
 * documents" into a WebhookPayloadError.
 */

export type JsonObject = Readonly<Record<string, unknown>>;

export const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The value at a dotted path of object keys, or undefined as soon as a step is missing. */
export function at(value: unknown, path: string): unknown {
  let current: unknown = value;
  for (const key of path.split('.')) {
    if (!isObject(current)) return undefined;
    current = current[key];
  }
  return current;
}

/** A non-empty string (numbers are written as decimal text), else undefined. */
export function text(value: unknown, path?: string): string | undefined {
  const found = path === undefined ? value : at(value, path);
  if (typeof found === 'number' && Number.isFinite(found)) return String(found);
  return typeof found === 'string' && found.trim() !== '' ? found.trim() : undefined;
}

/** An object at the path, else undefined. */
export const objectAt = (value: unknown, path: string): JsonObject | undefined => {
  const found = at(value, path);
  return isObject(found) ? found : undefined;
};

/** An array at the path, else an empty one. */
export const listAt = (value: unknown, path: string): readonly unknown[] => {
  const found = at(value, path);
  return Array.isArray(found) ? found : [];
};

/** The body as a JSON object, or a WebhookPayloadError naming the provider. */
export function parseJsonObject(rawBody: Buffer, psp: Psp): JsonObject {
  let parsed: unknown;
  try {
    parsed = JSON.parse(rawBody.toString('utf8'));
  } catch (error) {
    throw new WebhookBodyFormatError(`${psp} webhook body is not JSON`, { cause: error });
  }
  if (!isObject(parsed)) throw new WebhookBodyFormatError(`${psp} webhook body is not a JSON object`);
  return parsed;
}

/** A required non-empty string field, or a WebhookPayloadError. */
export function requiredText(value: unknown, path: string, psp: Psp): string {
  const found = text(value, path);
  if (found === undefined) throw new WebhookPayloadError(`${psp} webhook has no ${path}`);
  return found;
}

/** A required object field, or a WebhookPayloadError. */
export function requiredObject(value: unknown, path: string, psp: Psp): JsonObject {
  const found = objectAt(value, path);
  if (found === undefined) throw new WebhookPayloadError(`${psp} webhook has no ${path} object`);
  return found;
}

/** An amount the provider sends in minor units already: a non-negative safe integer, or absent. */
export function minorAmount(value: unknown, path: string, psp: Psp): number | undefined {
  const found = at(value, path);
  if (found === undefined || found === null) return undefined;
  const amount = typeof found === 'string' && /^\d+$/.test(found.trim()) ? Number(found.trim()) : found;
  if (typeof amount !== 'number' || !Number.isSafeInteger(amount) || amount < 0) {
    throw new WebhookPayloadError(`${psp} webhook ${path} is not an amount in minor units`);
  }
  return amount;
}

/** A major-unit amount ("49.99", 49.99) in minor units of `currency`, or a WebhookPayloadError naming `what`. */
export function minorFromMajor(major: string | number, currency: string, psp: Psp, what: string): number {
  try {
    return toMinorUnits(major, currency);
  } catch (error) {
    throw new WebhookPayloadError(`${psp} webhook ${what} is not an amount in ${currency}`, { cause: error });
  }
}

/** A major-unit amount at the path in minor units of `currency`, or absent. */
export function majorAmount(value: unknown, path: string, currency: string, psp: Psp): number | undefined {
  const found = at(value, path);
  if (found === undefined || found === null || found === '') return undefined;
  if (typeof found !== 'string' && typeof found !== 'number') throw new WebhookPayloadError(`${psp} webhook ${path} is not an amount`);
  return minorFromMajor(found, currency, psp, path);
}

/** ISO 8601 from unix seconds, or undefined. */
export function isoFromUnixSeconds(value: unknown): string | undefined {
  if (typeof value !== 'number') return undefined;
  const date = new Date(value * 1000);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** The object without its undefined fields, and undefined when nothing is left (tidy optional groups). */
export function compact<T extends object>(value: T): T | undefined {
  const entries = Object.entries(value).filter(([, field]) => field !== undefined);
  return entries.length === 0 ? undefined : (Object.fromEntries(entries) as T);
}

/** A person's name from its parts, or undefined when there are none. */
export const joinName = (...parts: readonly (string | undefined)[]): string | undefined => {
  const name = parts
    .filter((part): part is string => part !== undefined && part.trim() !== '')
    .join(' ')
    .trim();
  return name === '' ? undefined : name;
};

type EventFields = {
  -readonly [K in keyof NormalisedWebhookEvent]: NormalisedWebhookEvent[K];
};

/** A normalised event with its empty optional groups and fields left out. */
export function normalisedEvent(fields: EventFields): NormalisedWebhookEvent {
  const payment = fields.payment && compact(fields.payment);
  const customer = fields.customer && compact(fields.customer);
  return compact({ ...fields, payment, customer }) as NormalisedWebhookEvent;
}
