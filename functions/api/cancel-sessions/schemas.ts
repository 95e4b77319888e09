import * as z from '#shared/zod';
import { OFFER_TYPES, STEP_TYPES } from '#core/cancel-flows';
import { SAVE_STATUSES, SESSION_OUTCOMES, SESSION_STATES } from '#core/cancel-sessions';
import { SESSION_TOKEN_PATTERN } from '#core/session-tokens';
import { DateTime, described, ResponseMeta } from '#api/envelope-schemas';

const Int = z.number().check(z.int());

const Offer = z.object({
  type: z.enum(OFFER_TYPES),
  value: z.union([z.number(), z.string()]),
  duration_months: z.nullable(Int),
});

export const SessionStep = z.object({
  id: z.string(),
  step_type: z.enum(STEP_TYPES),
  title: z.string(),
  body: z.nullable(z.string()),
  options: z.array(z.object({ value: z.string(), label: z.string() })),
  button_label: z.nullable(z.string()),
  offer: z.nullable(Offer),
});

export const CancelSession = z.object({
  id: z.string(),
  state: described(z.enum(SESSION_STATES), 'in_progress, completed (expired sessions answer 404). See docs/cancel-flows.md for the transitions.'),
  flow_id: z.string(),
  customer_id: z.string(),
  subscription_id: z.nullable(z.string()),
  current_step: described(z.nullable(SessionStep), 'The step to answer; null once completed, or when every step is done (only completing is left).'),
  step_number: described(z.nullable(Int), 'The position of current_step in the flow, from 1.'),
  total_steps: Int,
  answers: z.array(
    z.object({
      step_id: z.string(),
      step_type: z.enum(STEP_TYPES),
      selected_reason: z.nullable(z.string()),
      accepted: z.nullable(z.boolean()),
      at: DateTime,
    }),
  ),
  accepted_offer: z.nullable(z.extend(Offer, { step_id: z.string() })),
  outcome: z.nullable(z.enum(SESSION_OUTCOMES)),
  reason: z.nullable(z.string()),
  feedback: z.nullable(z.string()),
  save_status: described(z.nullable(z.enum(SAVE_STATUSES)), 'Saved sessions: pending until the 30-day re-check, then confirmed or lost.'),
  created_at: DateTime,
  expires_at: DateTime,
  completed_at: z.nullable(DateTime),
});

const TOKEN = 'The session token returned by start (43 base64url characters).';
const TokenParams = z.object({ token: described(z.string().check(z.regex(SESSION_TOKEN_PATTERN)), TOKEN) });
const single = { 200: z.object({ data: CancelSession, meta: ResponseMeta }) };
const Reason = z.string().check(z.trim(), z.minLength(1), z.maxLength(100));

export const startCancelSessionSchemas = {
  body: z.object({
    merchant_id: described(z.string().check(z.minLength(1), z.maxLength(255)), "The API key's merchant (another merchant's id is 404)."),
    customer_id: described(
      z.string().check(z.trim(), z.minLength(1), z.maxLength(255)),
      "The merchant's customer: our id (cust_…) or the provider's customer id.",
    ),
    subscription_id: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(255))),
  }),
  responses: {
    201: z.object({
      data: z.extend(CancelSession, {
        token: described(z.string(), 'The credential of the session routes: shown once, stored only as a hash; valid 24 hours.'),
        url: described(z.string(), 'The hosted cancel page of this session (edge host): send the customer there.'),
      }),
      meta: ResponseMeta,
    }),
  },
  errorStatuses: [409],
} as const;

export const getCancelSessionSchemas = { params: TokenParams, responses: single } as const;

export const advanceCancelSessionSchemas = {
  params: TokenParams,
  body: z.object({
    selected_reason: z.optional(described(Reason, 'Survey step: the value of the chosen option.')),
    response: z.optional(
      described(
        z.record(z.string().check(z.maxLength(100)), z.unknown()),
        'Offer step: `{ "accepted": true | false }`. Other steps: free answers kept with the session (at most 4 KB as JSON).',
      ),
    ),
  }),
  responses: single,
  errorStatuses: [409],
} as const;

export const completeCancelSessionSchemas = {
  params: TokenParams,
  body: z.object({
    outcome: z.enum(SESSION_OUTCOMES),
    reason: z.optional(Reason),
    feedback: z.optional(described(z.string().check(z.maxLength(2000)), 'Free text from the customer (at most 2000 characters).')),
  }),
  responses: single,
  errorStatuses: [409],
} as const;

/**
 * GET /cancel/{token}: the hosted cancel page (HTML). The token is read by the page itself, as
 * sent: a malformed one (too long included) gets a 400 page, an unknown or expired one a 404 page.
 */
export const showCancelPageSchemas = {
  params: z.object({ token: described(z.string(), TOKEN) }),
  responses: { 200: z.string(), 400: z.string(), 404: z.string() },
  htmlStatuses: [200, 400, 404],
  rawPathParameters: true,
} as const;
