import type { SandboxCharge } from '../sandbox-charge-repository';
import { ENTITY, retryKeys } from '../keys';
import { defineEntity } from './define-entity';

/** A sandbox charge as stored: with its expiry (epoch seconds, the table's TTL attribute), which is not read back. */
export type StoredSandboxCharge = SandboxCharge & { readonly expires_at: number };

/** The sandbox gateway's record of one idempotency key, under the merchant it charged for (its place: the record does not name it). */
export const sandboxChargeEntity = defineEntity<StoredSandboxCharge, { readonly merchant_id: string }, SandboxCharge>({
  name: ENTITY.sandboxCharge,
  key: (charge, { merchant_id }) => retryKeys.sandboxCharge(merchant_id, charge.idempotency_key),
  internal: ['expires_at'],
});
