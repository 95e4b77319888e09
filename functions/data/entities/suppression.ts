import type { SuppressionRecord } from '../suppression-repository';
import { customerTags, ENTITY, suppressionKeys } from '../keys';
import { defineEntity } from './define-entity';

/** An address on a merchant's suppression list (by its lowercased email), among the customer's data (GSI2, erasure). */
export const suppressionEntity = defineEntity<SuppressionRecord>({
  name: ENTITY.suppression,
  key: (suppression) => suppressionKeys.entry(suppression.merchant_id, suppression.email),
  indexes: (suppression) =>
    customerTags.record(suppression.merchant_id, suppression.customer_id, suppressionKeys.entry(suppression.merchant_id, suppression.email)),
});
