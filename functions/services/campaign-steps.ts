import { queueSender } from '#adapters/queue-sender';
import { sendMessageOf } from '#contracts/notifications';
import type { CampaignRecord, CampaignStep } from '#core/campaigns/types';
import type { CustomerRecord } from '#core/customers';
import { decideStep, type EnrollmentRecord, type EnrollmentStatus, type ExecutedStep, stepDueAt, stepTimeFor } from '#core/enrollments';
import { StateConflictError } from '#core/errors';
import { isE164, type MessageRecord } from '#core/messages';
import { commitInstant, type PaymentRecord, paymentBodyOf } from '#core/payments';
import { changeCampaignStatus, getCampaign } from '#data/campaign-repository';
import { getAbTest, recordAbTestEvent } from '#data/ab-test-repository';
import { firstEmailStepIndex } from '#core/experiments/ab-test';
import type { AbArm } from '#core/experiments/assign';
import { abTestVariantFor } from '#core/experiments/promotion';
import { getCustomer, type TransactItem } from '#data/customer-repository';
import {
  activeEnrollmentsOfCustomer,
  campaignStatsWrite,
  claimEnrollment,
  type DueEnrollment,
  enrollmentWrite,
  getEnrollment,
} from '#data/enrollment-repository';
import { paymentKeys } from '#data/keys';
import { markScheduledMessageQueued, messagePut, newMessageRecord } from '#data/message-repository';
import { getPayment, timelineItem } from '#data/payment-repository';
import { getQuietHours } from '#data/settings-repository';
import { transactOptimistically } from '#data/transact';
import { env } from '#shared/env';
import { logger } from '#shared/logger';
import { stepTimeZoneOf } from './campaign-enrollment';
import { requestRetry } from './request-retry';

/** How long a claim holds a step: a run that dies mid-step leaves it due again this much later. */
export const STEP_LEASE_MS = 10 * 60_000;

export type AdvanceOutcome =
  | { readonly kind: 'not_claimed' }
  | { readonly kind: 'ran'; readonly outcome: string; readonly messageId: string | null }
  | { readonly kind: 'postponed'; readonly reason: string }
  | { readonly kind: 'ended'; readonly status: Exclude<EnrollmentStatus, 'active'>; readonly reason: string }
  /** The enrollment changed under the run (stopped on a card update meanwhile): nothing written. */
  | { readonly kind: 'lost' };

/** What a step did, and the message it created (written in the same transaction as the advance). */
interface StepResult {
  readonly outcome: string;
  readonly message: MessageRecord | null;
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
  paymentId: string,
): Promise<{ templateId: string | null; subject: string | null; assigned?: { id: string; arm: AbArm } }> {
  const own = { templateId: step.template_id, subject: step.subject ?? null };
  if (step.action !== 'email' || firstEmailStepIndex(campaign) !== index) return own;
  const test = await getAbTest(campaign.merchant_id, campaign.id);
  const assignment = test === undefined ? undefined : abTestVariantFor(test, paymentId);
  if (test === undefined || assignment === undefined) return own;
  return { templateId: assignment.variant.template_id, subject: assignment.variant.subject, assigned: { id: test.id, arm: assignment.arm } };
}

/** The address a message step goes to: the customer's email, or an E.164 `phone` on its record for sms and whatsapp. */
function recipientOf(customer: CustomerRecord | undefined, channel: 'email' | 'sms' | 'whatsapp'): string | undefined {
  if (channel === 'email') return customer?.email || undefined;
  const phone = (customer as { phone?: unknown } | undefined)?.phone;
  return typeof phone === 'string' && isE164(phone) ? phone : undefined;
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
    if (enrollment.retries_run >= campaign.max_attempts)
      return { outcome: `skipped: max_attempts (${campaign.max_attempts}) reached`, message: null, retried: false };
    try {
      const request = await requestRetry(enrollment.merchant_id, enrollment.payment_id, now);
      return { outcome: request.kind === 'queued' ? 'retry_queued' : `retry_deferred to ${request.dueAt}`, message: null, retried: true };
    } catch (error) {
      if (error instanceof StateConflictError) return { outcome: `retry_refused: ${error.message}`, message: null, retried: false };
      throw error;
    }
  }
  const to = recipientOf(customer, step.action);
  if (to === undefined)
    return { outcome: `skipped: no ${step.action === 'email' ? 'email address' : 'phone number'} for ${step.action}`, message: null, retried: false };
  const content = await contentOf(campaign, step, index, enrollment.payment_id);
  const message = newMessageRecord(
    {
      merchantId: enrollment.merchant_id,
      customerId: enrollment.customer_id,
      paymentId: enrollment.payment_id,
      recoveryId: enrollment.recovery_id,
      channel: step.action,
      purpose: 'campaign',
      to,
      templateId: content.templateId,
      subject: content.subject,
      campaignId: campaign.id,
      stepIndex: index,
      scheduledAt: now,
      ...(content.assigned ? { variant: content.assigned.arm } : {}),
    },
    now,
  );
  return { outcome: 'message_queued', message, retried: false, ...(content.assigned ? { assigned: content.assigned } : {}) };
}

const STAT_OF_END: Readonly<Record<Exclude<EnrollmentStatus, 'active'>, string>> = { completed: 'completed', stopped: 'stopped', recovered: 'recovered' };

/** The enrollment ended, and the campaign counters' change that goes with it. */
function ended(enrollment: EnrollmentRecord, status: Exclude<EnrollmentStatus, 'active'>, reason: string, now: Date) {
  const after: EnrollmentRecord = { ...enrollment, status, next_step_at: null, ended_at: now.toISOString(), end_reason: reason };
  return { after, stats: { active: -1, [STAT_OF_END[status]]: 1 } };
}

/** The payment's version bump that orders a timeline entry written beside it (as recordTimelineEvent does). */
function paymentTouch(payment: PaymentRecord, at: string): TransactItem {
  return {
    Update: {
      TableName: env.TABLE_NAME,
      Key: paymentKeys.payment(payment.merchant_id, paymentBodyOf(payment.id) as string),
      UpdateExpression: 'SET updated_at = :at, version = :next',
      ConditionExpression: 'version = :version',
      ExpressionAttributeValues: { ':at': at, ':next': payment.version + 1, ':version': payment.version },
    },
  };
}

/**
 * Writes an enrollment's new state in one transaction with the payment's timeline entry (and its
 * version bump), the step's message and the campaign's counters, conditional on the enrollment's
 * claimed version. A concurrent change of the payment re-reads it and tries again; a change of the
 * enrollment (stopped meanwhile) gives 'lost' and writes nothing.
 */
async function commit(
  claimed: EnrollmentRecord,
  after: EnrollmentRecord,
  parts: {
    readonly timeline?: { readonly type: string; readonly detail: string; readonly details: Record<string, unknown> };
    readonly message?: MessageRecord | null;
    readonly stats?: Record<string, number>;
    /** The payment as the caller read it (the first attempt uses it; a retry reads it again). */
    readonly payment?: PaymentRecord | undefined;
  },
  now: Date,
): Promise<'written' | 'lost'> {
  let first = true;
  return transactOptimistically(async () => {
    if (!first && (await getEnrollment(claimed.merchant_id, claimed.payment_id))?.version !== claimed.version) return { items: [], result: 'lost' as const };
    const known = first ? parts.payment : undefined;
    first = false;
    const items: TransactItem[] = [enrollmentWrite(claimed, after)];
    const payment = parts.timeline === undefined ? undefined : (known ?? (await getPayment(claimed.merchant_id, claimed.payment_id)));
    if (payment !== undefined && parts.timeline !== undefined) {
      const at = commitInstant(payment, now).toISOString();
      items.push(paymentTouch(payment, at), timelineItem({ ...payment, version: payment.version + 1 }, at, parts.timeline));
    }
    if (parts.message) items.push(messagePut(parts.message));
    const stats = parts.stats === undefined ? undefined : campaignStatsWrite(claimed.merchant_id, claimed.campaign_id, parts.stats);
    if (stats !== undefined) items.push(stats);
    return { items, result: 'written' as const };
  });
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

/**
 * B's completion: a paused campaign whose last active enrollment has ended is `completed` (a
 * conditional status change; it takes no new enrollments, so none can start meanwhile). Read
 * consistently: `stats.active` is kept in the enrollments' own transactions.
 */
export async function completeIfDone(merchantId: string, campaignId: string, now: Date): Promise<boolean> {
  const campaign = await getCampaign(merchantId, campaignId);
  if (campaign === undefined || campaign.status !== 'paused' || campaign.stats.active > 0) return false;
  try {
    await changeCampaignStatus(merchantId, campaignId, 'complete', now);
    return true;
  } catch (error) {
    if (error instanceof StateConflictError) return false;
    throw error;
  }
}

async function end(
  claimed: EnrollmentRecord,
  status: Exclude<EnrollmentStatus, 'active'>,
  reason: string,
  paymentExists: boolean,
  now: Date,
  payment?: PaymentRecord,
): Promise<AdvanceOutcome> {
  const change = ended(claimed, status, reason, now);
  const timeline = paymentExists
    ? {
        type: 'campaign_ended',
        detail: `Campaign ${claimed.campaign_id} ended: ${status} (${reason})`,
        details: { campaign_id: claimed.campaign_id, status, reason },
      }
    : undefined;
  if ((await commit(claimed, change.after, { ...(timeline ? { timeline } : {}), stats: change.stats, payment }, now)) === 'lost') return { kind: 'lost' };
  // A recovery counts for the A/B arm the payment was assigned (the test's `recovery` metric).
  if (status === 'recovered' && claimed.ab_test)
    await recordAbTestEvent(claimed.merchant_id, claimed.campaign_id, claimed.ab_test.arm, 'recovered', claimed.ab_test.id);
  await completeIfDone(claimed.merchant_id, claimed.campaign_id, now);
  return { kind: 'ended', status, reason };
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
  const claimed = await claimEnrollment(due.merchantId, due.paymentId, { stepIndex: due.stepIndex, dueAt: due.dueAt }, new Date(now.getTime() + STEP_LEASE_MS));
  if (claimed === undefined) return { kind: 'not_claimed' };
  const [campaign, payment] = await Promise.all([getCampaign(claimed.merchant_id, claimed.campaign_id), getPayment(claimed.merchant_id, claimed.payment_id)]);
  const decision = decideStep(claimed, campaign, payment, now);
  if (decision.kind === 'end') return end(claimed, decision.status, decision.reason, payment !== undefined, now, payment);
  if (decision.kind === 'postpone') return postpone(claimed, decision.until, decision.reason, now);
  const run = campaign as CampaignRecord;
  const [customer, quiet] = await Promise.all([getCustomer(claimed.merchant_id, claimed.customer_id), getQuietHours(claimed.merchant_id, now.getTime())]);
  const timezone = stepTimeZoneOf(customer, quiet.timezone);
  const allowed = stepTimeFor(now, run, timezone, quiet);
  if (allowed.getTime() > now.getTime()) return postpone(claimed, allowed, 'outside_hours', now);
  const result = await runStep(claimed, run, decision.step, decision.index, customer, now);
  const executed: ExecutedStep = {
    index: decision.index,
    action: decision.step.action,
    at: now.toISOString(),
    outcome: result.outcome,
    message_id: result.message?.id ?? null,
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
    },
  };
  // A retry step changed the payment (requestRetry): the commit reads it again.
  const known = decision.step.action === 'retry' ? undefined : payment;
  const written = await commit(
    claimed,
    change.after,
    { timeline, message: result.message, payment: known, ...(change.stats ? { stats: change.stats } : {}) },
    now,
  );
  if (written === 'lost') return { kind: 'lost' };
  if (result.assigned) await recordAbTestEvent(claimed.merchant_id, run.id, result.assigned.arm, 'assigned', result.assigned.id);
  if (result.message) await enqueue(result.message, now);
  if (last) await completeIfDone(claimed.merchant_id, run.id, now);
  return { kind: 'ran', outcome: result.outcome, messageId: executed.message_id };
}

/**
 * `stop_on_card_update`: the customer's card was updated (payment_method_updated, from ingest or a
 * provider webhook), so each of its active enrollments whose campaign stops on it ends `stopped`
 * with reason `card_updated` (conditional on the version read; one that changed meanwhile is read
 * again). Returns how many were stopped.
 */
export async function stopEnrollmentsOnCardUpdate(merchantId: string, customerId: string, now: Date): Promise<number> {
  let stopped = 0;
  for (const enrollment of await activeEnrollmentsOfCustomer(merchantId, customerId)) {
    const campaign = await getCampaign(merchantId, enrollment.campaign_id);
    if (campaign !== undefined && !campaign.stop_on_card_update) continue;
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const fresh = attempt === 0 ? enrollment : await getEnrollment(merchantId, enrollment.payment_id);
      if (fresh === undefined || fresh.status !== 'active') break;
      const outcome = await end(fresh, 'stopped', 'card_updated', true, now);
      if (outcome.kind === 'ended') stopped += 1;
      if (outcome.kind !== 'lost') break;
    }
  }
  return stopped;
}
