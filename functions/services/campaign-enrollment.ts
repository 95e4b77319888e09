import { failureOf } from '#core/campaigns/failure';
import { compareForEnrollment, matchingCampaign } from '#core/campaigns/matching';
import { triggerRuleOf } from '#core/campaigns/triggers';
import type { CampaignRecord } from '#core/campaigns/types';
import type { CustomerRecord } from '#core/customers';
import { type EnrollmentOccasion, type EnrollmentRecord, enrollmentBodyOf, stepTimeFor } from '#core/enrollments';
import { isOpen, type PaymentRecord } from '#core/payments';
import { isValidTimeZone } from '#core/quiet-hours';
import { type ActiveCampaignEntry, getActiveCampaignIndex } from '#data/campaign-repository';
import { getEnrollment, getEnrollmentAt, putEnrollment } from '#data/enrollment-repository';
import { getQuietHours } from '#data/settings-repository';
import { type StrategyInputs, strategySettingFor } from '#data/strategy-settings';
import { logger } from '#shared/logger';

const HOUR_MS = 3_600_000;

/**
 * The time zone a customer's steps run in: the customer's own when its record carries a valid
 * IANA `timezone`, else the merchant's quiet-hours zone (UTC when they set none).
 */
export function stepTimeZoneOf(customer: Pick<CustomerRecord, 'timezone'> | undefined, merchantZone: string): string {
  const own = customer?.timezone;
  return isValidTimeZone(own) ? own : merchantZone;
}

/**
 * Enrolls a newly failed (and still open) payment in the one active campaign that matches it
 * (matchingCampaign: the most specific), if any, unless the customer's campaign setting decides
 * (campaignByStrategy: a campaign experiment's variant, or the merchant's default). Cost, on top
 * of ingest: 1 GetItem (the merchant's active-campaign index); when it lists campaigns and the
 * caller has not read them, the campaign setting's reads (the strategy item and the experiments
 * Query); and, when a campaign is chosen, ONE TransactWriteItems (the enrollment's conditional put
 * and the campaign's stats). The first step is due at
 * enrolled_at + delay_hours + the step's delay_hours, moved into the campaign's hours in the
 * customer's time zone (else the merchant's) and out of the merchant's quiet hours; the quiet hours
 * come from the retry engine's per-process cache, which ingest's retry planning has just filled.
 * `customer` is the customer as ingest wrote it (this payment counted); `strategyInputs` the
 * merchant's strategy as ingest's retry planning read it (else read here).
 *
 * @example await enrollOnFailure(payment, customer, now) // → the enrollment, or undefined
 */
export async function enrollOnFailure(
  payment: PaymentRecord,
  customer: CustomerRecord | undefined,
  now: Date,
  strategyInputs?: StrategyInputs,
): Promise<EnrollmentRecord | undefined> {
  if (!isOpen(payment.status)) return undefined;
  const index = await getActiveCampaignIndex(payment.merchant_id);
  if (index.campaigns.length === 0) return undefined;
  const chosen = await campaignByStrategy(payment, index.campaigns, now, strategyInputs);
  if (chosen === null) return undefined;
  const campaign = chosen ?? matchingCampaign(index.campaigns, failureOf(payment, customer, { customerIncludesPayment: true }));
  if (campaign === undefined || campaign.steps_count === 0) return undefined;
  const enrollment = await enrollmentFor(payment, customer, campaign, now);
  return (await putEnrollment(enrollment)) ? enrollment : undefined;
}

/**
 * The campaign the customer's campaign setting (data/strategy-settings.ts: their variant of a
 * running campaign experiment, assigned here, else the merchant's default) enrolls the payment in:
 * its campaign when that is one of the merchant's active campaigns that enrolls failed payments
 * and has steps, whatever its filters (as a merchant's own choice of campaign is); null for
 * `campaign_id: null` (no campaign: the experiment's "no campaign" arm); undefined when there is no
 * setting, or its campaign is not active for the merchant (another merchant's, paused, archived,
 * deleted: logged), and normal matching decides. Only asked when the merchant has active campaigns.
 */
async function campaignByStrategy(
  payment: PaymentRecord,
  active: readonly ActiveCampaignEntry[],
  now: Date,
  inputs?: StrategyInputs,
): Promise<ActiveCampaignEntry | null | undefined> {
  const choice = await strategySettingFor(payment.merchant_id, payment.customer_id, 'campaign', now, inputs);
  if (choice === undefined) return undefined;
  const wanted = choice.setting.campaign_id;
  if (wanted === null) return null;
  const campaign = active.find((entry) => entry.id === wanted && triggerRuleOf(entry.trigger).enrollsOnFailure && entry.steps_count > 0);
  if (campaign === undefined) {
    logger.warn('campaign setting names no active campaign of the merchant: normal matching enrolls the payment', {
      merchant_id: payment.merchant_id,
      payment_id: payment.id,
      campaign_id: wanted,
      experiment_id: choice.experiment_id,
      variant: choice.variant,
    });
  }
  return campaign;
}

/** What scheduling a campaign's first step needs of it (the active index's entry, or the campaign itself). */
export interface CampaignSchedule {
  readonly id: string;
  readonly steps_count: number;
  readonly delay_hours?: number;
  readonly first_step_delay_hours?: number;
  readonly start_hour?: number;
  readonly end_hour?: number;
}

/** The schedule of a campaign record (the same fields the active index keeps for it). */
export const scheduleOf = (campaign: CampaignRecord): CampaignSchedule => ({
  id: campaign.id,
  steps_count: campaign.steps.length,
  delay_hours: campaign.delay_hours,
  first_step_delay_hours: campaign.steps[0]?.delay_hours ?? 0,
  start_hour: campaign.start_hour,
  end_hour: campaign.end_hour,
});

/** When a new enrollment's first step is due: enrollment + delay_hours + the step's delay, in the campaign's hours in the customer's zone, out of quiet hours. */
async function firstStepAt(merchantId: string, customer: CustomerRecord | undefined, campaign: CampaignSchedule, now: Date): Promise<string> {
  const quiet = await getQuietHours(merchantId, now.getTime());
  const firstAfter = new Date(now.getTime() + ((campaign.delay_hours ?? 0) + (campaign.first_step_delay_hours ?? 0)) * HOUR_MS);
  const window = { start_hour: campaign.start_hour ?? 0, end_hour: campaign.end_hour ?? 23 };
  return stepTimeFor(firstAfter, window, stepTimeZoneOf(customer, quiet.timezone), quiet).toISOString();
}

/** Whom a new enrollment is for: a payment (and its recovery), or a customer's occasion (no payment). */
type EnrollmentSubject = Pick<EnrollmentRecord, 'payment_id' | 'recovery_id' | 'customer_id'> & Pick<EnrollmentRecord, 'occasion'>;

/** A new active enrollment in the campaign, its first step scheduled from `now` (firstStepAt). */
async function newEnrollment(
  merchantId: string,
  subject: EnrollmentSubject,
  customer: CustomerRecord | undefined,
  campaign: CampaignSchedule,
  now: Date,
): Promise<EnrollmentRecord> {
  return {
    merchant_id: merchantId,
    campaign_id: campaign.id,
    ...subject,
    status: 'active',
    step_index: 0,
    next_step_at: await firstStepAt(merchantId, customer, campaign, now),
    total_steps: campaign.steps_count,
    retries_run: 0,
    enrolled_at: now.toISOString(),
    ended_at: null,
    end_reason: null,
    steps: [],
    version: 1,
  };
}

/** A new active enrollment of the payment in the campaign. */
const enrollmentFor = (payment: PaymentRecord, customer: CustomerRecord | undefined, campaign: CampaignSchedule, now: Date): Promise<EnrollmentRecord> =>
  newEnrollment(payment.merchant_id, { payment_id: payment.id, recovery_id: payment.recovery_id, customer_id: payment.customer_id }, customer, campaign, now);

export type ManualEnrollment =
  | { readonly outcome: 'enrolled'; readonly enrollment: EnrollmentRecord }
  /** The payment has an enrollment already (in this or another campaign: a payment is in at most one). */
  | { readonly outcome: 'already_enrolled'; readonly enrollment: EnrollmentRecord }
  /** The campaign left `active` before the enrollment was written. */
  | { readonly outcome: 'campaign_not_active' };

/**
 * Enrolls an open payment in a campaign the merchant chose (POST /analytics/at-risk-customers/{id}/enroll),
 * whatever its filters: the same enrollment and the same ONE TransactWriteItems as enrollOnFailure
 * (conditional on the payment having no enrollment and the campaign being active), the first step
 * scheduled from `now`.
 */
export async function enrollInCampaign(
  payment: PaymentRecord,
  customer: CustomerRecord | undefined,
  campaign: CampaignSchedule,
  now: Date,
): Promise<ManualEnrollment> {
  const enrollment = await enrollmentFor(payment, customer, campaign, now);
  if (await putEnrollment(enrollment)) return { outcome: 'enrolled', enrollment };
  const existing = await getEnrollment(payment.merchant_id, payment.id);
  return existing === undefined ? { outcome: 'campaign_not_active' } : { outcome: 'already_enrolled', enrollment: existing };
}

/**
 * The campaign a customer-level occasion enrolls in: among the merchant's active campaigns with
 * this trigger (`card_expiring`, `pre_dunning`) and at least one step, the one a payment would go
 * to (compareForEnrollment: the most specific, then the earliest activated). Their filters describe
 * a failed payment (amount, decline, psp) and are not applied: an occasion has none.
 */
export function occasionCampaignOf(campaigns: readonly ActiveCampaignEntry[], trigger: string): ActiveCampaignEntry | undefined {
  return campaigns.filter((campaign) => campaign.trigger === trigger && campaign.steps_count > 0).sort(compareForEnrollment)[0];
}

/**
 * A lookup of each merchant's occasion campaign for `trigger` (occasionCampaignOf), reading a
 * merchant's active-campaign index once however many of its customers a daily task meets.
 */
export function occasionCampaignLookup(trigger: string): (merchantId: string) => Promise<ActiveCampaignEntry | undefined> {
  const found = new Map<string, Promise<ActiveCampaignEntry | undefined>>();
  return (merchantId) => {
    let campaign = found.get(merchantId);
    if (campaign === undefined) {
      campaign = getActiveCampaignIndex(merchantId).then((index) => occasionCampaignOf(index.campaigns, trigger));
      found.set(merchantId, campaign);
    }
    return campaign;
  };
}

export type OccasionEnrollment = 'enrolled' | 'already_enrolled' | 'campaign_not_active';

/**
 * Enrolls a customer (no failed payment) in a campaign for an occasion (core/enrollments.ts
 * EnrollmentOccasion): the same ONE TransactWriteItems as a payment's enrollment, without the
 * payment, keyed by the occasion, so an occasion enrolls the customer once however often it is
 * asked (the daily tasks' idempotency). Its first step is scheduled as any enrollment's.
 */
export async function enrollForOccasion(
  customer: CustomerRecord,
  campaign: CampaignSchedule,
  occasion: EnrollmentOccasion,
  now: Date,
): Promise<OccasionEnrollment> {
  const enrollment = await newEnrollment(
    customer.merchant_id,
    { payment_id: null, recovery_id: null, occasion, customer_id: customer.id },
    customer,
    campaign,
    now,
  );
  if (await putEnrollment(enrollment)) return 'enrolled';
  return (await getEnrollmentAt(customer.merchant_id, enrollmentBodyOf(enrollment))) === undefined ? 'campaign_not_active' : 'already_enrolled';
}

/**
 * enrollForOccasion for a daily task: an error (a throttled write, a lost connection) is logged and
 * answered `failed`, so that one customer does not stop the run; the next run enrolls it (an
 * occasion is enrolled once, whenever that is).
 */
export async function enrollForOccasionOrLog(
  customer: CustomerRecord,
  campaign: CampaignSchedule,
  occasion: EnrollmentOccasion,
  now: Date,
): Promise<OccasionEnrollment | 'failed'> {
  try {
    return await enrollForOccasion(customer, campaign, occasion, now);
  } catch (error) {
    logger.error('occasion enrollment failed', {
      merchant_id: customer.merchant_id,
      customer_id: customer.id,
      occasion: occasion.kind,
      error_name: error instanceof Error ? error.name : 'Error',
      error: error instanceof Error ? error.message : String(error),
    });
    return 'failed';
  }
}
