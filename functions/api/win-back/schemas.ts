import { DateTime, ResponseMeta } from '#api/envelope-schemas';
import { isOfferText, MAX_OFFER_VALUE_LENGTH, WIN_BACK_OFFER_TYPES } from '#core/win-back';
import * as z from '#shared/zod';

function described<T extends z.ZodMiniType>(schema: T, description: string): T {
  const copy = schema.clone() as T;
  z.globalRegistry.add(copy, { description });
  return copy;
}

const Params = z.object({ customerId: described(z.string(), "The customer: ours (`cust_…`) or the provider's customer id.") });

export const StartWinBackBody = z.object({
  campaign_id: z.optional(described(z.string().check(z.minLength(1), z.maxLength(320)), 'The campaign the offer belongs to (`camp_…`), if any.')),
  offer_type: described(z.enum(WIN_BACK_OFFER_TYPES), '`discount`, `pause`, `downgrade` or `custom`.'),
  offer_value: described(
    z.string().check(z.trim(), z.minLength(1), z.maxLength(MAX_OFFER_VALUE_LENGTH), z.refine(isOfferText, 'must not contain {{ }} or control characters')),
    'The offer in the words the email uses (`20% off for 3 months`), 1-200 characters.',
  ),
});

export const WinBackData = z
  .object({
    id: z.string(),
    object: z.literal('win_back'),
    merchant_id: z.string(),
    customer_id: z.string(),
    campaign_id: z.nullable(z.string()),
    offer_type: z.enum(WIN_BACK_OFFER_TYPES),
    offer_value: z.string(),
    channel: z.literal('email'),
    message_id: described(z.string(), 'The email carrying the offer, in the communication log: its delivery status is that message’s.'),
    created_at: DateTime,
  })
  .clone()
  .register(z.globalRegistry, { id: 'WinBack', description: 'A win-back offer sent to a customer.' });

/** POST /api/v1/win-back/{customerId}: sends the offer by email and records it (201). */
export const startWinBackSchemas = {
  params: Params,
  body: StartWinBackBody,
  responses: { 201: z.object({ data: WinBackData, meta: ResponseMeta }) },
} as const;
