/**
 * The outbound event catalogue: every event type a merchant can subscribe an endpoint (or an
 * automation hook) to, with A's and B's names for the same fact, what it means, and a realistic
 * sample payload. An outbox item (functions/data/outbound-event-repository.ts) carries every name
 * of its fact in `types`, so an endpoint subscribed to either name gets it once.
 *
 * `recorded` says whether the service records the event today, each in the transaction of the
 * change it reports: the recovery outcomes and retries scheduled on every path of a payment
 * change (data/payment-change-events.ts, through payment-repository changePayment and
 * recordFailedPayment, which also records payment.failed), retry attempted (services/attempt-retry.ts), payment paused and resumed
 * (services/pause-payments.ts), campaign activated and paused (services/campaign-status.ts),
 * dunning sent (services/message-sent.ts), customer deleted (services/erase-customer.ts), a cancel
 * session completed (services/cancel-sessions.ts), an endpoint disabled
 * (services/deliver-webhook.ts), a sending domain verified or failed (services/email-domains.ts) and a
 * custom hostname's state change (services/custom-hostnames.ts). An
 * entry not recorded yet is catalogued from DESIGN §1 so endpoints may subscribe ahead.
 * docs/webhooks.md "Event types" lists every entry (a unit test keeps the two in step).
 *
 * Payload (DESIGN §1): `{ id, type, created_at, merchant_id, data: { object } }`.
 */

export interface EventPayload {
  readonly id: string;
  readonly type: string;
  readonly created_at: string;
  readonly merchant_id: string;
  readonly data: { readonly object: Readonly<Record<string, unknown>> };
}

export interface CatalogueEntry {
  /** A's name of the fact, when A has one. */
  readonly a?: string;
  /** B's name of the fact, when B has one (the same as A's when both use one name). */
  readonly b?: string;
  readonly description: string;
  /** Recorded by the service today (an outbox item is written in the change's transaction). */
  readonly recorded: boolean;
  /** A realistic `data.object` for this event. */
  readonly sampleObject: () => Readonly<Record<string, unknown>>;
}

const retryObject = { payment_id: 'pe_01JD8Z3K4Q6W2X7Y9A0B1C2D3E', recovery_id: 'rec_01JD8Z3K4Q6W2X7Y9A0B1C2D3F', retry_number: 2, gateway: 'stripe' };
const campaignObject = { campaign_id: 'camp_01JD8Y0A1B2C3D4E5F6G7H8J9K', name: 'Card declines, 3 steps', trigger: 'payment_failed' };

export const EVENT_CATALOGUE: readonly CatalogueEntry[] = [
  {
    b: 'payment.failed',
    description: 'A payment failed and was recorded; a recovery may start.',
    recorded: true,
    sampleObject: () => ({
      payment_id: retryObject.payment_id,
      recovery_id: retryObject.recovery_id,
      customer_id: 'cust_01JD8Z2V7M3N4P5Q6R7S8T9U0V',
      amount: 4900,
      currency: 'usd',
      decline_code: 'insufficient_funds',
      decline_category: 'soft_retry',
      psp: 'stripe',
      status: 'retrying',
      next_retry_at: '2026-11-26T09:00:00.000Z',
    }),
  },
  {
    a: 'recovery.succeeded',
    b: 'payment.recovered',
    description:
      'The failed payment is recovered: a retry charged it (`retry_number`, `gateway`, `provider_charge_id` name it), or the provider reported it paid (those three null).',
    recorded: true,
    sampleObject: () => ({ ...retryObject, amount: 4900, currency: 'usd', provider_charge_id: 'ch_3QHk2L2eZvKYlo2C1a2b3c4d', recovery_method: 'retry' }),
  },
  {
    a: 'recovery.failed',
    b: 'payment.terminal',
    description:
      'Recovery gave up on the payment: retries exhausted, a decline that must not be retried (the first one included), or the provider ended it (`retry_number` and `gateway` null when no retry decided it).',
    recorded: true,
    sampleObject: () => ({ ...retryObject, reason: 'card declined: stolen_card (do not retry)' }),
  },
  {
    b: 'payment.paused',
    description: "Retries of a payment were paused (POST /payments/{id}/pause, or B's customer pause-all): no retry or dunning until resumed.",
    recorded: true,
    sampleObject: () => ({
      payment_id: retryObject.payment_id,
      recovery_id: retryObject.recovery_id,
      customer_id: 'cust_01JD8Z2V7M3N4P5Q6R7S8T9U0V',
      status: 'paused',
      previous_status: 'retrying',
      paused_at: '2026-11-25T16:20:00.000Z',
      reason: 'Paused through the API',
    }),
  },
  {
    b: 'payment.resumed',
    description: "Retries of a paused payment resumed (POST /payments/{id}/resume, or B's customer resume-all): back to the status held before the pause.",
    recorded: true,
    sampleObject: () => ({
      payment_id: retryObject.payment_id,
      recovery_id: retryObject.recovery_id,
      customer_id: 'cust_01JD8Z2V7M3N4P5Q6R7S8T9U0V',
      status: 'retrying',
      resumed_at: '2026-11-26T08:55:00.000Z',
      next_retry_at: '2026-11-26T09:00:00.000Z',
      reason: 'Resumed through the API',
    }),
  },
  {
    a: 'recovery.retry_scheduled',
    b: 'recovery.retry_scheduled',
    description:
      'The next retry of a failed payment was scheduled: at the failure, after a declined retry or a gateway error, moved by quiet hours or the card caps, on resume, on a new card, or asked for through the API (`gateway`: of the attempt whose answer led to it, else null).',
    recorded: true,
    sampleObject: () => ({ ...retryObject, retry_number: 3, scheduled_at: '2026-11-27T14:00:00.000Z' }),
  },
  {
    a: 'recovery.retry_attempted',
    b: 'recovery.retry_attempted',
    description: 'A retry was attempted; `outcome` is succeeded, declined or gateway_error.',
    recorded: true,
    sampleObject: () => ({ ...retryObject, outcome: 'declined' }),
  },
  {
    a: 'campaign.activated',
    b: 'campaign.activated',
    description: 'A recovery campaign was activated (from draft or paused): new matching failed payments enroll.',
    recorded: true,
    sampleObject: () => ({ ...campaignObject, status: 'active', previous_status: 'draft', activated_at: '2026-11-25T10:00:00.000Z' }),
  },
  {
    a: 'campaign.paused',
    b: 'campaign.paused',
    description: 'An active recovery campaign was paused: enrollments in progress continue, nothing new enrolls.',
    recorded: true,
    sampleObject: () => ({ ...campaignObject, status: 'paused', previous_status: 'active', paused_at: '2026-11-25T18:00:00.000Z' }),
  },
  {
    a: 'dunning.sent',
    b: 'dunning.sent',
    description: 'A dunning message (email, SMS or WhatsApp; a manual dunning or a campaign step) was handed to its provider for the customer.',
    recorded: true,
    sampleObject: () => ({
      message_id: 'msg_01JD8Z5R6S7T8U9V0W1X2Y3Z4A',
      payment_id: retryObject.payment_id,
      recovery_id: retryObject.recovery_id,
      customer_id: 'cust_01JD8Z2V7M3N4P5Q6R7S8T9U0V',
      channel: 'email',
      purpose: 'campaign',
      campaign_id: campaignObject.campaign_id,
      step_index: 0,
      template_id: null,
      sent_at: '2026-11-25T14:00:02.000Z',
    }),
  },
  {
    a: 'customer.deleted',
    b: 'customer.deleted',
    description: 'A customer was erased (DELETE /customers/{id}): their data and their earlier events are gone from the service; this event keeps the id only.',
    recorded: true,
    sampleObject: () => ({ customer_id: 'cust_01JD8Z2V7M3N4P5Q6R7S8T9U0V' }),
  },
  {
    a: 'cancel_session.completed',
    b: 'cancel_session.completed',
    description:
      'A customer finished a cancel flow: `outcome` is cancelled, saved_discount, saved_pause, saved_other or abandoned; `accepted_offer` is the offer they took (a save), else null.',
    recorded: true,
    sampleObject: () => ({
      session_id: 'cs_01JD8Z7C8D9E0F1G2H3J4K5M6N',
      flow_id: 'cf_01JD8Y1A2B3C4D5E6F7G8H9J0K',
      customer_id: 'cust_01JD8Z2V7M3N4P5Q6R7S8T9U0V',
      subscription_id: 'sub_1QHk2L2eZvKYlo2C',
      outcome: 'saved_discount',
      reason: 'too_expensive',
      feedback: null,
      accepted_offer: { step_id: 'discount', type: 'discount', value: 30, duration_months: 3, redemption_cap: 1 },
      completed_at: '2026-11-25T10:15:00.000Z',
    }),
  },
  {
    a: 'webhook_endpoint.disabled',
    b: 'webhook_endpoint.disabled',
    description:
      "A webhook endpoint was disabled by the service: it answered 410 Gone or `webhook-delivery: disable`, or every attempt failed for 5 days. Sent to the merchant's other endpoints.",
    recorded: true,
    sampleObject: () => ({
      endpoint_id: 'we_01JD8Z7C8D9E0F1G2H3J4K5M6N',
      url: 'https://hooks.example.com/recovery',
      reason: 'every delivery failed for 5 days',
      disabled_at: '2026-11-30T09:12:00.000Z',
    }),
  },
  {
    a: 'email_domain.verified',
    b: 'email_domain.verified',
    description:
      "A custom sending domain was verified (SES reported DKIM SUCCESS at a verify call or the daily check): campaign email is sent from it from now on, under its warm-up cap. The merchant's event.",
    recorded: true,
    sampleObject: () => ({
      email_domain_id: 'edom_01JD8Z8D9E0F1G2H3J4K5M6N7P',
      domain: 'mail.acme.com',
      status: 'verified',
      previous_status: 'pending',
      dkim_status: 'SUCCESS',
      mail_from_status: 'SUCCESS',
      failure_reason: null,
      changed_at: '2026-11-26T08:00:00.000Z',
    }),
  },
  {
    a: 'email_domain.failed',
    b: 'email_domain.failed',
    description:
      "A custom sending domain failed: SES reported DKIM FAILED, or it was not verified within 72 hours of setup (`failure_reason` says which). Campaign email does not use it. The merchant's event.",
    recorded: true,
    sampleObject: () => ({
      email_domain_id: 'edom_01JD8Z8D9E0F1G2H3J4K5M6N7P',
      domain: 'mail.acme.com',
      status: 'failed',
      previous_status: 'pending',
      dkim_status: 'PENDING',
      mail_from_status: 'PENDING',
      failure_reason: 'The DKIM records were not found within 72 hours of setup; correct them, then delete the domain and set it up again',
      changed_at: '2026-11-28T08:00:00.000Z',
    }),
  },
  {
    a: 'custom_hostname.updated',
    b: 'custom_hostname.updated',
    description:
      "A custom hostname's state or its certificate's changed (a check by verify or the scheduled checker, or a delete): `status` and `certificate_status` are the new states, `previous_status` and `previous_certificate_status` the old. The merchant's event.",
    recorded: true,
    sampleObject: () => ({
      hostname_id: 'chn_01JD8Z7C8D9E0F1G2H3J4K5M6N',
      hostname: 'pay.merchant.example',
      status: 'active',
      previous_status: 'pending',
      certificate_status: 'active',
      previous_certificate_status: 'pending_validation',
      verification_errors: [],
      updated_at: '2026-11-25T10:16:00.000Z',
    }),
  },
];

/** The type of the event the test route sends; not subscribable (every endpoint may be tested). */
export const TEST_EVENT_TYPE = 'webhook.test';

/** Every name of an entry, A's first (one when A and B share it). */
export function namesOf(entry: CatalogueEntry): string[] {
  return [...new Set([entry.a, entry.b].filter((name): name is string => name !== undefined))];
}

/** Every subscribable event name, A's and B's, in catalogue order. */
export const EVENT_TYPES: readonly string[] = EVENT_CATALOGUE.flatMap(namesOf);

export function isEventType(name: string): boolean {
  return EVENT_TYPES.includes(name);
}

/** The catalogue entry a name (A's or B's) belongs to. */
export function catalogueEntry(name: string): CatalogueEntry | undefined {
  return EVENT_CATALOGUE.find((entry) => entry.a === name || entry.b === name);
}

/** Whether an endpoint subscribed to `subscribed` receives an event of `types` (all of its fact's names). */
export function matchesSubscription(subscribed: readonly string[], types: readonly string[]): boolean {
  return types.some((type) => subscribed.includes(type));
}

/**
 * A realistic payload of the event `name` for a merchant (automation `sample`, docs), typed
 * with the name asked for. Undefined for a name outside the catalogue.
 */
export function samplePayload(name: string, merchantId: string, now: Date = new Date()): EventPayload | undefined {
  const entry = catalogueEntry(name);
  if (entry === undefined) return undefined;
  return {
    id: 'evt_sample_01JD8Z6B7C8D9E0F1G2H3J4K5M',
    type: name,
    created_at: now.toISOString(),
    merchant_id: merchantId,
    data: { object: entry.sampleObject() },
  };
}

/** The payload of a test delivery (POST /webhooks/endpoints/{id}/test). */
export function testPayload(id: string, merchantId: string, endpointId: string, now: Date): EventPayload {
  return {
    id,
    type: TEST_EVENT_TYPE,
    created_at: now.toISOString(),
    merchant_id: merchantId,
    data: { object: { endpoint_id: endpointId, message: 'A test event sent from the recovery service.' } },
  };
}

/**
 * The name an event is delivered under to a target subscribed to `subscribed`: A's name of the
 * fact when the target subscribed to it (or to both), else the name it subscribed to; undefined
 * when it subscribed to none of `types`.
 */
export function deliveredType(subscribed: readonly string[], types: readonly string[]): string | undefined {
  const names = types.filter((type) => subscribed.includes(type));
  if (names.length === 0) return undefined;
  const a = types.map(catalogueEntry).find((entry) => entry !== undefined)?.a;
  return a !== undefined && names.includes(a) ? a : names[0];
}
