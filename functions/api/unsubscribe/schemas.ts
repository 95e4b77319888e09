import * as z from '#shared/zod';

const TokenParams = z.object({
  token: z
    .string()
    .check(z.minLength(1))
    .clone()
    .register(z.globalRegistry, { description: 'The unsubscribe token of the message (its link or List-Unsubscribe header).' }),
});

/** GET /unsubscribe/{token}: the confirmation page (HTML). */
export const showUnsubscribeSchemas = {
  params: TokenParams,
  htmlStatuses: [200],
} as const;

/** POST /unsubscribe/{token}: RFC 8058 one-click unsubscribe; answers a small HTML page. */
export const unsubscribeSchemas = {
  params: TokenParams,
  htmlStatuses: [200],
  documentedBody: {
    description:
      "RFC 8058 one-click: `List-Unsubscribe=One-Click` (what mail clients send; the confirmation page's button sends the same). Any body is accepted.",
    required: false,
    content: { 'application/x-www-form-urlencoded': z.looseObject({ 'List-Unsubscribe': z.optional(z.literal('One-Click')) }) },
  },
} as const;
