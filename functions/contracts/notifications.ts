import * as z from '#shared/zod';

export const DUNNING_EMAIL_KIND = 'dunning_email';

/** What POST /recoveries/{id}/dunning enqueues on `notifications`: ids only, never the email itself. */
export const DunningEmailMessageSchema = z.object({
  kind: z.literal(DUNNING_EMAIL_KIND),
  merchant_id: z.string().check(z.minLength(1)),
  message_id: z.string().check(z.minLength(1)),
});
export type DunningEmailMessage = z.infer<typeof DunningEmailMessageSchema>;
