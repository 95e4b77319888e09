import type { RollupItem } from './rollup-item';
import { type AnalyticsPeriod, seriesBucketOf, seriesBuckets } from './period';
import { type Ratio, ratio } from './ratio';

/** Message counts: how many messages were sent, and how many of them reached each outcome. */
export interface MessageCounts {
  readonly sent: number;
  readonly delivered: number;
  readonly bounced: number;
  readonly complained: number;
  readonly opened: number;
  readonly clicked: number;
  readonly unsubscribed: number;
}

const ZERO: MessageCounts = { sent: 0, delivered: 0, bounced: 0, complained: 0, opened: 0, clicked: 0, unsubscribed: 0 };
const KINDS = Object.keys(ZERO) as (keyof MessageCounts)[];

/** The counts of rollup items added up (counter `<kind>_count` of each). */
export function countsOf(items: readonly RollupItem[]): MessageCounts {
  const total: Record<keyof MessageCounts, number> = { ...ZERO };
  for (const item of items) for (const kind of KINDS) total[kind] += item.counters[`${kind}_count`] ?? 0;
  return total;
}

/** Email items only: SMS and WhatsApp have no bounces, complaints or opens of the same meaning. */
export const emailOnly = (items: readonly RollupItem[]): RollupItem[] => items.filter((item) => item.dims.channel === 'email');

function groupBy<K>(items: readonly RollupItem[], keyOf: (item: RollupItem) => K): Map<K, RollupItem[]> {
  const groups = new Map<K, RollupItem[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [item]);
    else group.push(item);
  }
  return groups;
}

/** Deliverability of a set of sends: bounce, complaint and delivery rates, each over the emails sent. */
export interface Deliverability {
  readonly sent: number;
  readonly delivered: number;
  readonly bounced: number;
  readonly complained: number;
  readonly bounce_rate: Ratio;
  readonly complaint_rate: Ratio;
  readonly delivered_rate: Ratio;
}

export function deliverabilityOf(counts: MessageCounts): Deliverability {
  return {
    sent: counts.sent,
    delivered: counts.delivered,
    bounced: counts.bounced,
    complained: counts.complained,
    bounce_rate: ratio(counts.bounced, counts.sent),
    complaint_rate: ratio(counts.complained, counts.sent),
    delivered_rate: ratio(counts.delivered, counts.sent),
  };
}

/** Recipient domains listed one by one; the rest are added up in `other_domains`. */
export const MAX_LISTED_DOMAINS = 50;

export interface EmailHealth {
  readonly totals: Deliverability;
  /** One row per recipient domain, most emails first (ties by domain), at most {@link MAX_LISTED_DOMAINS}. */
  readonly by_domain: readonly (Deliverability & { readonly domain: string })[];
  /** The domains past the listed ones, added up (null when every domain is listed). */
  readonly other_domains: (Deliverability & { readonly domains: number }) | null;
  /** One row per series bucket of the period, in order, empty buckets included. */
  readonly series: readonly (Deliverability & { readonly bucket: string })[];
}

/** Email health over a period, from the MSG rollups read for it (any channel: non-email items are left out). */
export function emailHealthOf(items: readonly RollupItem[], period: AnalyticsPeriod): EmailHealth {
  const emails = emailOnly(items);
  const domains = [...groupBy(emails, (item) => item.dims.domain ?? '')]
    .map(([domain, group]) => ({ domain, group, counts: countsOf(group) }))
    .sort((a, b) => b.counts.sent - a.counts.sent || (a.domain < b.domain ? -1 : a.domain > b.domain ? 1 : 0));
  const rest = domains.slice(MAX_LISTED_DOMAINS);
  const byBucket = groupBy(emails, (item) => seriesBucketOf(item.bucket, period.group_by));
  const series = seriesBuckets(period).map((bucket) => ({ bucket, ...deliverabilityOf(countsOf(byBucket.get(bucket) ?? [])) }));
  return {
    totals: deliverabilityOf(countsOf(emails)),
    by_domain: domains.slice(0, MAX_LISTED_DOMAINS).map(({ domain, counts }) => ({ domain, ...deliverabilityOf(counts) })),
    other_domains: rest.length === 0 ? null : { domains: rest.length, ...deliverabilityOf(countsOf(rest.flatMap(({ group }) => group))) },
    series,
  };
}

/** Engagement of a set of emails: open, click and unsubscribe rates, each over the emails delivered. */
export interface Engagement {
  readonly sent: number;
  readonly delivered: number;
  readonly opened: number;
  readonly clicked: number;
  readonly unsubscribed: number;
  readonly open_rate: Ratio;
  readonly click_rate: Ratio;
  /** Clicks over opens: of the emails seen opening, how many were clicked. */
  readonly click_to_open_rate: Ratio;
  readonly unsubscribe_rate: Ratio;
}

export function engagementOf(counts: MessageCounts): Engagement {
  return {
    sent: counts.sent,
    delivered: counts.delivered,
    opened: counts.opened,
    clicked: counts.clicked,
    unsubscribed: counts.unsubscribed,
    open_rate: ratio(counts.opened, counts.delivered),
    click_rate: ratio(counts.clicked, counts.delivered),
    click_to_open_rate: ratio(counts.clicked, counts.opened),
    unsubscribe_rate: ratio(counts.unsubscribed, counts.delivered),
  };
}

export interface EmailEngagement {
  readonly overall: Engagement;
  /** One row per campaign (`null`: dunning emails, sent outside any campaign), most emails first. */
  readonly by_campaign: readonly (Engagement & { readonly campaign_id: string | null })[];
}

/** Email engagement over the rollups read for a period, optionally of one campaign only. */
export function emailEngagementOf(items: readonly RollupItem[], campaignId?: string): EmailEngagement {
  const emails = emailOnly(items).filter((item) => campaignId === undefined || item.dims.campaign_id === campaignId);
  const byCampaign = [...groupBy(emails, (item) => item.dims.campaign_id ?? '')]
    .map(([campaign, group]) => ({ campaign_id: campaign === '' ? null : campaign, ...engagementOf(countsOf(group)) }))
    .sort((a, b) => b.sent - a.sent || String(a.campaign_id).localeCompare(String(b.campaign_id)));
  return { overall: engagementOf(countsOf(emails)), by_campaign: byCampaign };
}
