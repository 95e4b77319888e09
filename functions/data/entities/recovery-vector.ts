import type { VectorMetadata } from '#core/vectors/store';
import { VECTOR_ENTITY, vectorKeys } from '../keys';
import { defineEntity } from './define-entity';

/** A vector of the local store: its numbers as little-endian float32 bytes, its metadata, and when it was written. */
export interface RecoveryVectorRecord extends VectorMetadata {
  readonly id: string;
  readonly vector: Uint8Array;
  readonly written_at: string;
}

/**
 * A stored vector (local store only): filed under the merchant, in the write log (GSI3, the
 * in-memory matrix's incremental refresh) and, when it names a customer, in the customer's data
 * partition (GSI2), so that erasure finds it.
 */
export const recoveryVectorEntity = defineEntity<RecoveryVectorRecord, string>({
  name: VECTOR_ENTITY.vector,
  key: (record, merchantId) => vectorKeys.vector(merchantId, record.id),
  indexes: (record, merchantId) => ({
    ...vectorKeys.log(merchantId, record.written_at, record.id),
    ...(record.customer_id === null ? {} : vectorKeys.customerTag(merchantId, record.customer_id, record.id)),
  }),
});
