import { type EnrollmentRecord, type EnrollmentStatus, enrollmentBodyOf } from '#core/enrollments';
import { StateConflictError } from '#core/errors';
import type { MessageRecord } from '#core/messages';
import { commitInstant, type PaymentRecord, paymentBodyOf } from '#core/payments';
import { getCampaign } from '#data/campaign-repository';
import { setCampaignStatus } from './campaign-status';
import { recordAbTestEvent } from '#data/ab-test-repository';
import type { TransactItem } from '#data/customer-repository';
import { activeEnrollmentsOfCustomer, campaignStatsWrite, enrollmentWrite, getEnrollmentAt } from '#data/enrollment-repository';
import { paymentKeys } from '#data/keys';
import { messagePut } from '#data/message-repository';
import { getPayment, timelineItem } from '#data/payment-repository';
import { transactOptimistically } from '#data/transact';
import { env } from '#shared/env';

/** How long a claim holds a step: a run that dies mid-step leaves it due again this much later. */
export const STEP_LEASE_MS = 10 * 60_000;

/**
 * The writes that end or move a campaign enrollment, apart from running its steps
 * (campaign-steps.ts): the enrollment's new state in one transaction with its timeline entry, its
 * message and the campaign's counters; ending it (recovered, stopped, completed); completing a
 * paused campaign whose last enrollment ended; and stopping a customer's enrollments when their card
 * is updated, which ingest and the webhook consumer call without loading the step machinery (the
 * retry engine, the queue client, A/B assignment).
 */
export type AdvanceOutcome =
  | { readonly kind: 'not_claimed' }
  | { readonly kind: 'ran'; readonly outcome: string; readonly messageId: string | null }
  | { readonly kind: 'postponed'; readonly reason: string }
  | { readonly kind: 'ended'; readonly status: Exclude<EnrollmentStatus, 'active'>; readonly reason: string }
  /** The enrollment changed under the run (stopped on a card update meanwhile): nothing written. */
  | { readonly kind: 'lost' };

const STAT_OF_END: Readonly<Record<Exclude<EnrollmentStatus, 'active'>, string>> = { completed: 'completed', stopped: 'stopped', recovered: 'recovered' };

/** The enrollment ended, and the campaign counters' change that goes with it. */
export function ended(enrollment: EnrollmentRecord, status: Exclude<EnrollmentStatus, 'active'>, reason: string, now: Date) {
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
 * version bump), the step's messages and the campaign's counters, conditional on the enrollment's
 * claimed version. A concurrent change of the payment re-reads it and tries again; a change of the
 * enrollment (stopped meanwhile) gives 'lost' and writes nothing.
 */
export async function commit(
  claimed: EnrollmentRecord,
  after: EnrollmentRecord,
  parts: {
    readonly timeline?: { readonly type: string; readonly detail: string; readonly details: Record<string, unknown> };
    readonly messages?: readonly MessageRecord[];
    readonly stats?: Record<string, number>;
    /** The payment as the caller read it (the first attempt uses it; a retry reads it again). */
    readonly payment?: PaymentRecord | undefined;
  },
  now: Date,
): Promise<'written' | 'lost'> {
  let first = true;
  return transactOptimistically(async () => {
    if (!first && (await getEnrollmentAt(claimed.merchant_id, enrollmentBodyOf(claimed)))?.version !== claimed.version)
      return { items: [], result: 'lost' as const };
    const known = first ? parts.payment : undefined;
    first = false;
    const items: TransactItem[] = [enrollmentWrite(claimed, after)];
    // A customer-level enrollment (no payment) has no payment timeline to write to.
    const paymentId = claimed.payment_id;
    const payment = parts.timeline === undefined || paymentId === null ? undefined : (known ?? (await getPayment(claimed.merchant_id, paymentId)));
    if (payment !== undefined && parts.timeline !== undefined) {
      const at = commitInstant(payment, now).toISOString();
      items.push(paymentTouch(payment, at), timelineItem({ ...payment, version: payment.version + 1 }, at, parts.timeline));
    }
    for (const message of parts.messages ?? []) items.push(messagePut(message));
    const stats = parts.stats === undefined ? undefined : campaignStatsWrite(claimed.merchant_id, claimed.campaign_id, parts.stats);
    if (stats !== undefined) items.push(stats);
    return { items, result: 'written' as const };
  });
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
    await setCampaignStatus(merchantId, campaignId, 'complete', now);
    return true;
  } catch (error) {
    if (error instanceof StateConflictError) return false;
    throw error;
  }
}

export async function end(
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

/**
 * `stop_on_card_update`: the customer's card was updated (payment_method_updated, from ingest or a
 * provider webhook), so each of its active enrollments whose campaign stops on it ends `stopped`
 * with reason `card_updated` (conditional on the version read; one that changed meanwhile is read
 * again). A card-expiry notice of the old card always ends: its card is gone. Returns how many were stopped.
 */
export async function stopEnrollmentsOnCardUpdate(merchantId: string, customerId: string, now: Date): Promise<number> {
  let stopped = 0;
  for (const enrollment of await activeEnrollmentsOfCustomer(merchantId, customerId)) {
    const campaign = await getCampaign(merchantId, enrollment.campaign_id);
    if (campaign !== undefined && !campaign.stop_on_card_update && enrollment.occasion?.kind !== 'card_expiring') continue;
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const fresh = attempt === 0 ? enrollment : await getEnrollmentAt(merchantId, enrollmentBodyOf(enrollment));
      if (fresh === undefined || fresh.status !== 'active') break;
      const outcome = await end(fresh, 'stopped', 'card_updated', true, now);
      if (outcome.kind === 'ended') stopped += 1;
      if (outcome.kind !== 'lost') break;
    }
  }
  return stopped;
}
