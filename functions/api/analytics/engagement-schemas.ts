/**
 * Schemas of the engagement side of analytics: campaign performance, at-risk customers and their
 * enrollment, email health and engagement (the recovery side has its own schemas file).
 */
import * as z from '#shared/zod';
import { AT_RISK_COHORTS } from '#core/analytics/at-risk-customers';
import { CAMPAIGN_STATUSES } from '#core/campaigns/types';
import { ENROLLMENT_STATUSES } from '#core/enrollments';
import { AmountsByCurrency, DateTime, OffsetPagination, ResponseMeta } from '#api/envelope-schemas';
import { cursorPagingQuery, offsetPagingQuery } from '#api/pipeline/paging-query';
import { groupByQuery, periodQuery } from './period-query';

const Int = z.number().check(z.int());
const Id = z.string().check(z.minLength(1), z.maxLength(255));

function described<T extends z.ZodMiniType>(schema: T, description: string): T {
  const copy = schema.clone() as T;
  z.globalRegistry.add(copy, { description });
  return copy;
}

/** A rate with its numerator and denominator (core/analytics/ratio.ts). */
const EngagementRatio = z.object({
  rate: described(z.number(), 'numerator / denominator, rounded to 4 decimals; 0 when the denominator is 0.'),
  numerator: Int,
  denominator: Int,
});
const ratioOf = (description: string) => described(EngagementRatio, description);

// Campaign analytics ----------------------------------------------------------------------------

export const CampaignAnalyticsRow = z.object({
  id: z.string(),
  name: z.string(),
  status: z.enum(CAMPAIGN_STATUSES),
  trigger: described(z.string(), 'The canonical trigger.'),
  sessions_count: described(Int, 'Enrollments: payments enrolled in the campaign since it was created (a session is one enrollment).'),
  recovered_count: described(Int, 'Enrollments that ended because their payment was recovered while enrolled.'),
  recovery_rate: described(z.number(), 'recovered_count / sessions_count (0-1, 4 decimals); 0 before any enrollment. Open enrollments are in the denominator.'),
  recovery: ratioOf('recovery_rate with its numerator (recovered_count) and denominator (sessions_count).'),
  active_count: described(Int, 'Enrollments still running (steps left to run).'),
  completed_count: described(Int, 'Enrollments that ran every step without the payment being recovered.'),
  stopped_count: described(Int, 'Enrollments stopped: payment terminal, paused or erased, card updated, campaign archived.'),
  messages_sent: described(Int, 'Messages the campaign queued (every channel).'),
  enrolled_amount_by_currency: described(
    AmountsByCurrency,
    'The amounts of the payments the campaign took on (every payment enrolled in it), per currency, smallest unit (CAMP rollups).',
  ),
  recovered_amount_by_currency: described(
    AmountsByCurrency,
    'Of those, the amounts recovered, by any method and at any time after enrollment (also after the enrollment ended), per currency (CAMP rollups).',
  ),
  created_at: DateTime,
  activated_at: z.nullable(DateTime),
});

export const getCampaignAnalyticsSchemas = {
  query: z.object({ ...cursorPagingQuery }),
  responses: {
    200: z.object({
      data: z.array(CampaignAnalyticsRow),
      cursor: z.object({ next: described(z.nullable(z.string()), 'The cursor of the next page; null at the end.') }),
      meta: ResponseMeta,
    }),
  },
} as const;

// At-risk customers -----------------------------------------------------------------------------

export const AtRiskCustomerRow = z.object({
  id: described(z.string(), 'The customer id.'),
  customer_id: described(z.string(), 'The same id (B name).'),
  email: z.string(),
  name: z.nullable(z.string()),
  currency: described(z.nullable(z.string()), 'The currency of the scalar amounts: that of the customer’s most recent payment.'),
  at_risk_amount: described(Int, 'Open (pending, retrying, paused) payments’ amounts in `currency`, smallest unit.'),
  at_risk_amount_by_currency: AmountsByCurrency,
  open_payments: described(Int, 'Open payments (pending, retrying, paused).'),
  open_payment_ids: z.array(z.string()),
  failed_payments: described(Int, 'Failed payments recorded for the customer, whatever became of them.'),
  lifetime_value: described(Int, 'Lifetime value in `currency`: successful and recovered payments, smallest unit.'),
  lifetime_value_by_currency: AmountsByCurrency,
  latest_failure_at: described(DateTime, 'When the most recent open payment failed.'),
  cohorts: described(z.array(z.enum(AT_RISK_COHORTS)), 'Every cohort the customer is in (always `all`).'),
});

export const listAtRiskCustomersSchemas = {
  query: z.object({
    cohort: z._default(z.enum(AT_RISK_COHORTS), 'all').clone().register(z.globalRegistry, {
      description:
        'all (default): customers with an open recovery; expiring_card: an open payment declined for an expired card; repeat_failure: 2+ failed payments; high_value: lifetime value plus amount at risk of at least about USD 500 in one currency (docs/analytics.md).',
    }),
    ...offsetPagingQuery,
  }),
  responses: {
    200: z.object({ data: z.array(AtRiskCustomerRow), cohort: z.enum(AT_RISK_COHORTS), pagination: OffsetPagination, meta: ResponseMeta }),
  },
} as const;

const Enrollment = z.object({
  payment_id: z.string(),
  recovery_id: z.string(),
  campaign_id: z.string(),
  status: z.enum(ENROLLMENT_STATUSES),
  enrolled_at: DateTime,
  next_step_at: z.nullable(DateTime),
});

export const enrollAtRiskCustomerSchemas = {
  params: z.object({ id: Id }),
  body: z.object({ campaign_id: described(Id, 'An active campaign of the merchant.') }),
  responses: {
    201: z.object({
      data: z.object({
        customer_id: z.string(),
        campaign_id: z.string(),
        enrolled: described(z.array(Enrollment), 'One enrollment per open payment enrolled by this call.'),
        skipped: described(
          z.array(z.object({ payment_id: z.string(), campaign_id: z.string(), reason: z.literal('already_enrolled') })),
          'Open payments already in a campaign (a payment is in at most one): left where they are.',
        ),
      }),
      meta: ResponseMeta,
    }),
  },
} as const;

// Email health and engagement ------------------------------------------------------------------

const deliverabilityFields = {
  sent: described(Int, 'Emails sent in the period (by send time).'),
  delivered: described(Int, 'Of those, emails the provider reported delivered.'),
  bounced: described(Int, 'Of those, emails that bounced (hard bounces; soft bounces are retried by the provider).'),
  complained: described(Int, 'Of those, emails the recipient reported as spam.'),
  bounce_rate: ratioOf('bounced / sent.'),
  complaint_rate: ratioOf('complained / sent.'),
  delivered_rate: ratioOf('delivered / sent.'),
};

const SendingStatus = z.object({
  paused: described(z.boolean(), 'Whether the merchant’s email sending is paused now (emails are held, not lost).'),
  since: z.nullable(DateTime),
  reason: z.nullable(z.string()),
  bounce_rate: described(z.nullable(z.number()), 'The bounce rate that was judged when sending paused; null while sending runs.'),
  complaint_rate: described(z.nullable(z.number()), 'The complaint rate that was judged when sending paused; null while sending runs.'),
  thresholds: z.object({
    bounce_rate: described(z.number(), 'Sending pauses above this bounce rate (0.025).'),
    complaint_rate: described(z.number(), 'Sending pauses above this complaint rate (0.0008).'),
    window_days: described(Int, 'Rates are judged over the sends of the last this many days.'),
    min_sends: described(Int, 'No rate is judged before this many sends in the window.'),
  }),
});

export const getEmailHealthSchemas = {
  query: z.object({ ...periodQuery, ...groupByQuery }),
  responses: {
    200: z.object({
      data: z.object({
        channel: z.literal('email'),
        period: z.object({ start_date: z.string(), end_date: z.string(), group_by: z.string() }),
        ...deliverabilityFields,
        spam_complaints: described(Int, 'B: the complaints (= complained).'),
        by_domain: described(
          z.array(z.object({ domain: z.string(), ...deliverabilityFields })),
          'Deliverability per recipient domain (the part of the address after @, lowercased), most emails first: the first 50 domains.',
        ),
        other_domains: described(
          z.nullable(z.object({ domains: described(Int, 'How many domains are added up here.'), ...deliverabilityFields })),
          'The domains past the first 50 of by_domain, added up; null when by_domain lists every domain.',
        ),
        series: described(z.array(z.object({ bucket: z.string(), ...deliverabilityFields })), 'The same figures per group_by bucket, empty buckets included.'),
        sending: SendingStatus,
      }),
      meta: ResponseMeta,
    }),
  },
} as const;

const engagementFields = {
  sent: described(Int, 'Emails sent in the period (by send time).'),
  delivered: described(Int, 'Of those, emails reported delivered: the denominator of every rate below but click_to_open_rate.'),
  opened: described(Int, 'Of those, emails opened at least once (approximate: image proxies open some, privacy settings hide others).'),
  clicked: described(Int, 'Of those, emails with at least one link clicked.'),
  unsubscribed: described(Int, 'Of those, emails whose unsubscribe link or header was used (the customer’s first unsubscribe).'),
  open_rate: ratioOf('opened / delivered.'),
  click_rate: ratioOf('clicked / delivered.'),
  click_to_open_rate: ratioOf('clicked / opened.'),
  unsubscribe_rate: ratioOf('unsubscribed / delivered.'),
};

export const getEmailEngagementSchemas = {
  query: z.object({
    ...periodQuery,
    campaign_id: z.optional(Id).clone().register(z.globalRegistry, { description: 'Only the emails of this campaign.' }),
  }),
  responses: {
    200: z.object({
      data: z.object({
        channel: z.literal('email'),
        period: z.object({ start_date: z.string(), end_date: z.string() }),
        campaign_id: z.nullable(z.string()),
        ...engagementFields,
        by_campaign: described(
          z.array(z.object({ campaign_id: described(z.nullable(z.string()), 'null: dunning emails, sent outside any campaign.'), ...engagementFields })),
          'The same figures per campaign, most emails first.',
        ),
      }),
      meta: ResponseMeta,
    }),
  },
} as const;

/** The row options of the engagement routes (routes.ts), one per row. */
export const engagementRowOptions = {
  campaigns: { schemas: getCampaignAnalyticsSchemas },
  atRiskCustomers: { schemas: listAtRiskCustomersSchemas },
  enroll: { schemas: enrollAtRiskCustomerSchemas },
  health: { schemas: getEmailHealthSchemas },
  engage: { schemas: getEmailEngagementSchemas },
} as const;
