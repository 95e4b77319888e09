import { queueSender } from '#adapters/queue-sender';
import { dunningRefusal, MANUAL_DUNNING_COOLDOWN_MS } from '#core/dunning';
import { ResourceNotFoundError, StateConflictError, ValidationError } from '#core/errors';
import type { MessageRecord } from '#core/messages';
import type { PaymentRecord } from '#core/payments';
import { isQuietAt, nextAllowedAt } from '#core/quiet-hours';
import { createDunningMessage, failUnqueuedMessage } from '#data/message-repository';
import { getPayment } from '#data/payment-repository';
import { quietHoursOf, readQuietHours } from '#data/settings-repository';
import { sendMessageOf } from '#contracts/notifications';
import { getTemplate } from '#data/template-repository';
import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { triggerDunningSchemas } from './schemas';

/** A's acknowledgement and B's `sent`/`message_id` in one record, saying whether the email goes now or when. */
const dunningView = (p: PaymentRecord, m: MessageRecord) => ({
  recovery_id: p.recovery_id,
  payment_event_id: p.id,
  payment_id: p.id,
  status: m.status === 'scheduled' ? ('dunning_scheduled' as const) : ('dunning_triggered' as const),
  sent: m.status !== 'scheduled',
  message_id: m.id,
  scheduled_at: m.scheduled_at ?? null,
});

/**
 * POST /api/v1/recoveries/{id}/dunning: sends a dunning email outside any campaign schedule.
 * Records the message in the communication log and answers 202 with A's acknowledgement and B's
 * `sent` and `message_id` in one body:
 * - outside the merchant's quiet hours: `queued` and enqueued on `notifications`, whose consumer
 *   sends it once; `status: dunning_triggered`, `sent: true`, `scheduled_at: null`;
 * - inside them: `scheduled` for the end of the quiet period (core/quiet-hours.ts), which the
 *   every-minute job releases to the queue when due; `status: dunning_scheduled`, `sent: false`,
 *   `scheduled_at`.
 * Refusals: 404 for an unknown recovery (`param: id`) or a `template_id` naming no template the
 * merchant can use (a built-in or its own: `param: template_id`), 422 for an SMS or WhatsApp
 * template (`param: template_id`); 409 when the recovery is
 * recovered, terminal or paused; 409 when the customer already got (or will get) a manual dunning
 * email within the cooldown (core/dunning.ts MANUAL_DUNNING_COOLDOWN_MS, one hour), whichever of
 * their recoveries it was for: a business rule, so state_conflict as Stripe answers a request the
 * object's state forbids, not 429, which is the API key's rate limit. If the enqueue fails, the
 * message is marked `failed`, the cooldown it started is lifted, and the request answers 500,
 * which is not kept under an Idempotency-Key, so the client can retry at once.
 */
export const triggerDunning = defineOperation({ auth: 'api_key', schemas: triggerDunningSchemas }, async ({ params, body, principal, requestId }) => {
  const merchantId = principal.merchantId;
  const payment = await getPayment(merchantId, params.id);
  if (payment === undefined) throw new ResourceNotFoundError(`No recovery ${params.id}.`, { param: 'id' });
  const templateId = body?.template_id ?? null;
  if (templateId !== null) {
    const template = await getTemplate(merchantId, templateId);
    if (template === undefined) throw new ResourceNotFoundError(`No template ${templateId}.`, { param: 'template_id' });
    if (template.channel !== 'email')
      throw new ValidationError(`Template ${templateId} is for ${template.channel}; a dunning email needs an email template.`, { param: 'template_id' });
  }
  const refusal = dunningRefusal(payment.status);
  if (refusal !== undefined) throw new StateConflictError(`Cannot send a dunning email for recovery ${payment.recovery_id}: ${refusal}.`);

  const now = new Date();
  const quietHours = quietHoursOf(await readQuietHours(merchantId));
  const scheduledAt = isQuietAt(quietHours, now) ? nextAllowedAt(quietHours, now) : null;
  const cooldownUntil = new Date((scheduledAt ?? now).getTime() + MANUAL_DUNNING_COOLDOWN_MS);
  const message = await createDunningMessage(payment, { templateId, subject: body?.subject ?? null, scheduledAt, cooldownUntil }, now);
  if (message.status === 'queued') {
    try {
      await queueSender.send('notifications', sendMessageOf(merchantId, message.id));
    } catch (error) {
      await failUnqueuedMessage(message, 'Could not be queued for sending', new Date()).catch(() => undefined);
      throw error;
    }
  }
  return { statusCode: 202, body: envelope(dunningView(payment, message), requestId, merchantId) };
});
