import { dayOf, hourOf } from '#core/analytics/period';
import type { MessageRecord } from '#core/messages';
import { ENTITY, rollupKeys } from '../keys';
import type { CounterContribution, Projection } from './projection';

/** The counters of a MSG rollup item, each 1 per message whose matching `*_at` field is set. */
export const MESSAGE_COUNTERS = [
  'sent_count',
  'delivered_count',
  'bounced_count',
  'complained_count',
  'opened_count',
  'clicked_count',
  'unsubscribed_count',
] as const;
export type MessageCounter = (typeof MESSAGE_COUNTERS)[number];

/** The field of a message that makes it count in each counter. */
const COUNTED_BY: Readonly<Record<MessageCounter, keyof MessageRecord>> = {
  sent_count: 'sent_at',
  delivered_count: 'delivered_at',
  bounced_count: 'bounced_at',
  complained_count: 'complained_at',
  opened_count: 'opened_at',
  clicked_count: 'clicked_at',
  unsubscribed_count: 'unsubscribed_at',
};

/** The dimensions of a MSG rollup item, in sort-key order. */
export interface MessageDims {
  /** '' for dunning messages (no campaign). */
  readonly campaign_id: string;
  readonly channel: string;
  /** The lowercased domain of an email's recipient; '' for SMS and WhatsApp. */
  readonly domain: string;
}

/** The recipient domain of an email address (after its last `@`), lowercased; '' when there is none. */
export function recipientDomainOf(to: unknown): string {
  if (typeof to !== 'string') return '';
  const at = to.lastIndexOf('@');
  return at === -1
    ? ''
    : to
        .slice(at + 1)
        .trim()
        .toLowerCase();
}

const isSet = (value: unknown): boolean => typeof value === 'string' && value !== '';

/**
 * The MSG projection (common contract "Rollup item format"): a message counts in the hour and the
 * day of its `sent_at` (UTC), under its campaign ('' for dunning), channel and recipient domain
 * (email only), once per kind: sent, and delivered, bounced, complained, opened, clicked and
 * unsubscribed when the message's `*_at` field for it is set. Later events (a click a week later)
 * are counted in the bucket the message was sent in, so a period's rates compare each message
 * with its own outcome. A message that was never sent (scheduled, queued, cancelled, suppressed,
 * failed) contributes nothing. `unsubscribed_at` is set by the one-click unsubscribe on the
 * message whose link or header was used (services/unsubscribe.ts).
 */
export const messageRollups: Projection = (item) => {
  if (item.entity !== ENTITY.message) return [];
  const sentAt = item.sent_at;
  const merchantId = item.merchant_id;
  if (!isSet(sentAt) || typeof merchantId !== 'string') return [];
  const sent = new Date(sentAt as string);
  if (Number.isNaN(sent.getTime())) return [];
  const channel = typeof item.channel === 'string' ? item.channel : 'email';
  const dims: MessageDims = {
    campaign_id: typeof item.campaign_id === 'string' ? item.campaign_id : '',
    channel,
    domain: channel === 'email' ? recipientDomainOf(item.to) : '',
  };
  const counters: Record<string, number> = {};
  for (const counter of MESSAGE_COUNTERS) if (isSet(item[COUNTED_BY[counter]])) counters[counter] = 1;
  const values = [dims.campaign_id, dims.channel, dims.domain];
  return (
    [
      ['H', hourOf(sent)],
      ['D', dayOf(sent)],
    ] as const
  ).map(
    ([granularity, bucket]): CounterContribution => ({
      key: rollupKeys.item(merchantId, 'MSG', granularity, bucket, values),
      counters,
      attributes: { entity: ENTITY.rollup, merchant_id: merchantId, bucket, dims: { ...dims } },
    }),
  );
};
