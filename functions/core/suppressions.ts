/**
 * Why an address is on a merchant's email suppression list: the provider reported a permanent
 * bounce, the recipient marked an email as spam, the recipient unsubscribed, or the merchant or an
 * operator added it by hand.
 */
export const SUPPRESSION_REASONS = ['hard_bounce', 'complaint', 'unsubscribe', 'manual'] as const;
export type SuppressionReason = (typeof SUPPRESSION_REASONS)[number];
