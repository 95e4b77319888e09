/**
 * The SES events the configuration set publishes to EventBridge, by `detail-type`: the rule of
 * lib/constructs/email-sending.ts matches these, functions/consumers/email-events.ts applies them.
 * Pure data.
 */
export const SES_EVENT_DETAIL_TYPES = [
  'Email Delivered',
  'Email Opened',
  'Email Clicked',
  'Email Bounced',
  'Email Complaint Received',
  'Email Rejected',
] as const;
