import { queueSender } from '#adapters/queue-sender';
import { sendMessageOf } from '#contracts/notifications';
import type { CampaignRecord, CampaignStep, MessageChannel } from '#core/campaigns/types';
import type { CustomerRecord } from '#core/customers';
import { decideOccasionStep, decideStep, type EnrollmentRecord, type ExecutedStep, type StepDecision, stepDueAt, stepTimeFor } from '#core/enrollments';
import { StateConflictError } from '#core/errors';
import { isE164, type MessageRecord } from '#core/messages';
import { getCampaign } from '#data/campaign-repository';
import { getAbTest, recordAbTestEvent } from '#data/ab-test-repository';
import { firstEmailStepIndex } from '#core/experiments/ab-test';
import type { AbArm } from '#core/experiments/assign';
import { abTestVariantFor } from '#core/experiments/promotion';
import { getCustomer } from '#data/customer-repository';
import { claimEnrollment, type DueEnrollment } from '#data/enrollment-repository';
import { markScheduledMessageQueued, newMessageRecord } from '#data/message-repository';
import { getPayment } from '#data/payment-repository';
import { getQuietHours } from '#data/settings-repository';
import { strategySettingFor } from '#data/strategy-settings';
import { logger } from '#shared/logger';
import { stepTimeZoneOf } from './campaign-enrollment';
import { requestRetry } from './request-retry';
import { type AdvanceOutcome, commit, completeIfDone, end, ended } from './campaign-enrollment-writes';

export type { AdvanceOutcome } from './campaign-enrollment-writes';
export { completeIfDone, stopEnrollmentsOnCardUpdate } from './campaign-enrollment-writes';

/** How long a claim holds a step: a run that dies mid-step leaves it due again this much later. */
export const STEP_LEASE_MS = 10 * 60_000;

/** What a step did, and the message it created (written in the same transaction as the advance). */
interface StepResult {
  readonly outcome: string;
  /** The step's messages: one, or one per channel when the customer's channel setting sends an email step on several. */
  readonly messages: readonly MessageRecord[];
  readonly retried: boolean;
  /** The A/B arm this step assigned the payment (the campaign's first email step while a test runs). */
  readonly assigned?: { readonly id: string; readonly arm: AbArm };
}

/**
 * The template and subject a message step sends: the step's own, or, at the campaign's first email
 * step while an email A/B test runs on the campaign, the payment's arm's variant (deterministic by
 * test and payment, core/experiments/assign.ts).
 */
async function contentOf(
  campaign: CampaignRecord,
  step: CampaignStep,
  index: number,
  paymentId: string | null,
): Promise<{ templateId: string | null; subject: string | null; assigned?: { id: string; arm: AbArm } }> {
  const own = { templateId: step.template_id, subject: step.subject ?? null };
  // A customer-level notice (no payment) takes no part in an A/B test: its metric is the payment's recovery.
  if (paymentId === null || step.action !== 'email' || firstEmailStepIndex(campaign) !== index) return own;
  const test = await getAbTest(campaign.merchant_id, campaign.id);
  const assignment = test === undefined ? undefined : abTestVariantFor(test, paymentId);
  if (test === undefined || assignment === undefined) return own;
  return { templateId: assignment.variant.template_id, subject: assignment.variant.subject, assigned: { id: test.id, arm: assignment.arm } };
}

/** The address a message step goes to: the customer's email, or an E.164 `phone` on its record for sms and whatsapp. */
function recipientOf(customer: CustomerRecord | undefined, channel: MessageChannel): string | undefined {
  if (channel === 'email') return customer?.email || undefined;
  const phone = customer?.phone;
  return typeof phone === 'string' && isE164(phone) ? phone : undefined;
}

/**
 * The channels a message step goes out on, with their addresses. An sms or whatsapp step: its own.
 * An email step of a payment's enrollment follows the customer's channel setting
 * (data/strategy-settings.ts: their variant of a running channel experiment, assigned here, else the
 * merchant's default): every listed channel the customer has an address for (email; an E.164 phone
 * for sms and whatsapp), in the setting's order; when none of them has one, the email itself, so no
 * customer goes without the step. `['email']`, no setting, and a customer-level notice (no payment:
 * the setting's metric is a payment's recovery) keep the email alone. Suppressions and unsubscribes
 * are the notifications consumer's, per channel, as for any message.
 */
async function stepChannels(
  enrollment: EnrollmentRecord,
  action: MessageChannel,
  customer: CustomerRecord | undefined,
  now: Date,
): Promise<{ channel: MessageChannel; to: string | undefined }[]> {
  const own = [{ channel: action, to: recipientOf(customer, action) }];
  if (action !== 'email' || enrollment.payment_id === null) return own;
  const choice = await strategySettingFor(enrollment.merchant_id, enrollment.customer_id, 'channel', now);
  if (choice === undefined) return own;
  const reachable = choice.setting.channels.map((channel) => ({ channel, to: recipientOf(customer, channel) })).filter((c) => c.to !== undefined);
  return reachable.length > 0 ? reachable : own;
}

/**
 * Runs a step's action. A retry hands over to the retry engine (requestRetry: the card-network
 * caps, do-not-retry rules and quiet hours are its own, so a campaign can never exceed them; a
 * refusal is the step's outcome and the campaign goes on); `max_attempts` caps the retry steps a
 * campaign runs. A message step builds a `campaign` message, held `scheduled` for now so that it
 * sits in the message due index until it is on the queue (the dispatch job's own protocol); the
 * notifications consumer does suppression, unsubscribes, quiet hours and sending.
 */
async function runStep(
  enrollment: EnrollmentRecord,
  campaign: CampaignRecord,
  step: CampaignStep,
  index: number,
  customer: CustomerRecord | undefined,
  now: Date,
): Promise<StepResult> {
  if (step.action === 'retry') {
    if (enrollment.payment_id === null) return { outcome: 'skipped: no failed payment to retry (customer-level notice)', messages: [], retried: false };
    if (enrollment.retries_run >= campaign.max_attempts)
      return { outcome: `skipped: max_attempts (${campaign.max_attempts}) reached`, messages: [], retried: false };
    try {
      const request = await requestRetry(enrollment.merchant_id, enrollment.payment_id, now);
      return { outcome: request.kind === 'queued' ? 'retry_queued' : `retry_deferred to ${request.dueAt}`, messages: [], retried: true };
    } catch (error) {
      if (error instanceof StateConflictError) return { outcome: `retry_refused: ${error.message}`, messages: [], retried: false };
      throw error;
    }
  }
  const channels = await stepChannels(enrollment, step.action as MessageChannel, customer, now);
  const targets = channels.filter((c): c is { channel: MessageChannel; to: string } => c.to !== undefined);
  if (targets.length === 0)
    return { outcome: `skipped: no ${step.action === 'email' ? 'email address' : 'phone number'} for ${step.action}`, messages: [], retried: false };
  const content = await contentOf(campaign, step, index, enrollment.payment_id);
  // Another channel than the step's own sends that channel's default text (the step's template and subject are an email's).
  const messages = targets.map(({ channel, to }) => {
    const own = channel === step.action;
    return newMessageRecord(
      {
        merchantId: enrollment.merchant_id,
        customerId: enrollment.customer_id,
        paymentId: enrollment.payment_id,
        recoveryId: enrollment.recovery_id,
        channel,
        purpose: 'campaign',
        to,
        templateId: own ? content.templateId : null,
        subject: own ? content.subject : null,
        campaignId: campaign.id,
        stepIndex: index,
        scheduledAt: now,
        ...(enrollment.occasion?.kind === 'pre_dunning' && enrollment.occasion.amount !== undefined && enrollment.occasion.currency !== undefined
          ? { charge: { amount: enrollment.occasion.amount, currency: enrollment.occasion.currency, due_at: enrollment.occasion.due_at } }
          : {}),
        ...(own && content.assigned ? { variant: content.assigned.arm } : {}),
      },
      now,
    );
  });
  const alone = messages.length === 1 && messages[0]?.channel === step.action;
  const outcome = alone ? 'message_queued' : `message_queued: ${messages.map((m) => m.channel).join(', ')}`;
  return { outcome, messages, retried: false, ...(content.assigned && targets.some((t) => t.channel === step.action) ? { assigned: content.assigned } : {}) };
}

/** Puts a campaign message on `notifications` and marks it queued; if that fails it stays scheduled, and the every-minute dispatch sends it. */
async function enqueue(message: MessageRecord, now: Date): Promise<void> {
  try {
    await queueSender.send('notifications', sendMessageOf(message.merchant_id, message.id));
    await markScheduledMessageQueued(message.merchant_id, message.id, now);
  } catch (error) {
    logger.warn('campaign message left for the dispatch job', {
      merchant_id: message.merchant_id,
      message_id: message.id,
      error_name: error instanceof Error ? error.name : 'Error',
    });
  }
}

async function postpone(claimed: EnrollmentRecord, until: Date, reason: string, now: Date): Promise<AdvanceOutcome> {
  const after: EnrollmentRecord = { ...claimed, next_step_at: until.toISOString() };
  return (await commit(claimed, after, {}, now)) === 'lost' ? { kind: 'lost' } : { kind: 'postponed', reason };
}

/**
 * Advances one due enrollment (the hourly job's unit of work): claims it (a conditional update on
 * its step and due time: two runs never execute a step twice), re-reads its campaign, payment and
 * customer, and then, by decideStep: ends it (`recovered`, `stopped`, `completed`), postpones it
 * (payment paused; or now outside the campaign's hours in the customer's zone or inside the
 * merchant's quiet hours: to the first instant allowed), or runs the step and schedules the next
 * one (its delay_hours after this run, the same window rules) or, after the last, ends `completed`.
 */
export async function advanceEnrollment(due: DueEnrollment, now: Date): Promise<AdvanceOutcome> {
  const claimed = await claimEnrollment(due.merchantId, due.body, { stepIndex: due.stepIndex, dueAt: due.dueAt }, new Date(now.getTime() + STEP_LEASE_MS));
  if (claimed === undefined) return { kind: 'not_claimed' };
  const paymentId = claimed.payment_id;
  // A customer-level enrollment (a card-expiry or pre-dunning notice) has no payment: its customer decides instead.
  const [campaign, payment, occasionCustomer] = await Promise.all([
    getCampaign(claimed.merchant_id, claimed.campaign_id),
    paymentId === null ? undefined : getPayment(claimed.merchant_id, paymentId),
    paymentId === null ? getCustomer(claimed.merchant_id, claimed.customer_id) : undefined,
  ]);
  const decision: StepDecision =
    paymentId === null ? decideOccasionStep(claimed, campaign, occasionCustomer, now) : decideStep(claimed, campaign, payment, now);
  if (decision.kind === 'end') return end(claimed, decision.status, decision.reason, payment !== undefined, now, payment);
  if (decision.kind === 'postpone') return postpone(claimed, decision.until, decision.reason, now);
  const run = campaign as CampaignRecord;
  const [customer, quiet] = await Promise.all([
    occasionCustomer ?? getCustomer(claimed.merchant_id, claimed.customer_id),
    getQuietHours(claimed.merchant_id, now.getTime()),
  ]);
  const timezone = stepTimeZoneOf(customer, quiet.timezone);
  const allowed = stepTimeFor(now, run, timezone, quiet);
  if (allowed.getTime() > now.getTime()) return postpone(claimed, allowed, 'outside_hours', now);
  const result = await runStep(claimed, run, decision.step, decision.index, customer, now);
  const executed: ExecutedStep = {
    index: decision.index,
    action: decision.step.action,
    at: now.toISOString(),
    outcome: result.outcome,
    message_id: result.messages[0]?.id ?? null,
    ...(result.messages.length > 1 ? { message_ids: result.messages.map((m) => m.id) } : {}),
  };
  const advanced: EnrollmentRecord = {
    ...claimed,
    step_index: decision.index + 1,
    // A paused campaign's steps may have been edited: the enrollment follows the campaign as it is now.
    total_steps: run.steps.length,
    retries_run: claimed.retries_run + (result.retried ? 1 : 0),
    steps: [...claimed.steps, executed],
    ...(result.assigned ? { ab_test: result.assigned } : {}),
  };
  const last = decision.index + 1 >= run.steps.length;
  const change = last
    ? ended(advanced, 'completed', 'steps_done', now)
    : { after: { ...advanced, next_step_at: stepDueAt(run, decision.index + 1, now, timezone, quiet).toISOString() }, stats: undefined };
  const timeline = {
    type: 'campaign_step',
    detail: `Campaign step ${decision.index + 1} of ${run.steps.length} (${decision.step.action}): ${result.outcome}`,
    details: {
      campaign_id: run.id,
      step: decision.index + 1,
      step_index: decision.index,
      action: decision.step.action,
      outcome: result.outcome,
      message_id: executed.message_id,
      ...(executed.message_ids ? { message_ids: executed.message_ids } : {}),
    },
  };
  // A retry step changed the payment (requestRetry): the commit reads it again.
  const known = decision.step.action === 'retry' ? undefined : payment;
  const written = await commit(
    claimed,
    change.after,
    { timeline, messages: result.messages, payment: known, ...(change.stats ? { stats: change.stats } : {}) },
    now,
  );
  if (written === 'lost') return { kind: 'lost' };
  if (result.assigned) await recordAbTestEvent(claimed.merchant_id, run.id, result.assigned.arm, 'assigned', result.assigned.id);
  for (const message of result.messages) await enqueue(message, now);
  if (last) await completeIfDone(claimed.merchant_id, run.id, now);
  return { kind: 'ran', outcome: result.outcome, messageId: executed.message_id };
}
