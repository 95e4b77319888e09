import type { DeclineCodeRecord } from '#core/decline-codes/index';

/** A catalogue entry as the API shows it: the spec's B list item. */
export const declineCodeView = (record: DeclineCodeRecord) => ({
  code: record.code,
  psp: record.psp,
  category: record.category,
  subcategory: record.subcategory,
  description: record.description,
  recommended_action: record.recommended_action,
  recovery_rate: record.recovery_rate,
});
