import { emailEngagementOf, emailHealthOf } from '#core/analytics/email';
import type { RollupItem } from '#core/analytics/rollup-item';

const item = (bucket: string, dims: Record<string, string>, counters: Record<string, number>): RollupItem => ({ bucket, dims, counters });
const email = (campaign: string, domain: string) => ({ campaign_id: campaign, channel: 'email', domain });

const items: RollupItem[] = [
  item('2026-03-02', email('camp_1', 'gmail.com'), {
    sent_count: 100,
    delivered_count: 95,
    bounced_count: 5,
    complained_count: 1,
    opened_count: 40,
    clicked_count: 10,
    unsubscribed_count: 2,
  }),
  item('2026-03-03', email('', 'gmail.com'), { sent_count: 50, delivered_count: 50, opened_count: 5 }),
  item('2026-03-09', email('camp_1', 'yahoo.com'), { sent_count: 200, delivered_count: 180, bounced_count: 20, opened_count: 30, clicked_count: 3 }),
  item('2026-03-09', { campaign_id: 'camp_1', channel: 'sms', domain: '' }, { sent_count: 999, delivered_count: 999 }),
];
const period = { start_date: '2026-03-02', end_date: '2026-03-15', group_by: 'week' } as const;

describe('email health', () => {
  it('rates bounces, complaints and deliveries over the emails sent, overall and per domain (SMS left out)', () => {
    // Act
    const health = emailHealthOf(items, period);
    // Assess
    expect(health.totals).toMatchObject({ sent: 350, delivered: 325, bounced: 25, complained: 1 });
    expect(health.totals.bounce_rate).toEqual({ rate: 0.0714, numerator: 25, denominator: 350 });
    expect(health.totals.complaint_rate).toEqual({ rate: 0.0029, numerator: 1, denominator: 350 });
    expect(health.by_domain.map((row) => [row.domain, row.sent, row.bounced])).toEqual([
      ['yahoo.com', 200, 20],
      ['gmail.com', 150, 5],
    ]);
  });

  it('lists the 50 domains with most emails and adds up the others', () => {
    // Prepare: 52 domains, domain i with i + 1 emails, one bounce each.
    const many = Array.from({ length: 52 }, (_, i) => item('2026-03-02', email('', `d${i}.example`), { sent_count: i + 1, bounced_count: 1 }));
    // Act
    const health = emailHealthOf(many, period);
    // Assess
    expect(health.by_domain).toHaveLength(50);
    expect(health.by_domain[0]?.domain).toBe('d51.example');
    expect(health.other_domains).toMatchObject({ domains: 2, sent: 3, bounced: 2, bounce_rate: { rate: 0.6667, numerator: 2, denominator: 3 } });
    expect(emailHealthOf(items, period).other_domains).toBeNull();
  });

  it('gives a series bucket for every week of the period, empty ones included', () => {
    // Act
    const { series } = emailHealthOf(items, period);
    // Assess
    expect(series.map((row) => [row.bucket, row.sent])).toEqual([
      ['2026-03-02', 150],
      ['2026-03-09', 200],
    ]);
    expect(emailHealthOf([], { ...period, end_date: '2026-03-20' }).series.map((row) => row.sent)).toEqual([0, 0, 0]);
  });
});

describe('email engagement', () => {
  it('rates opens, clicks and unsubscribes over the emails delivered, overall and per campaign', () => {
    // Act
    const engagement = emailEngagementOf(items);
    // Assess
    expect(engagement.overall).toMatchObject({ sent: 350, delivered: 325, opened: 75, clicked: 13, unsubscribed: 2 });
    expect(engagement.overall.open_rate).toEqual({ rate: 0.2308, numerator: 75, denominator: 325 });
    expect(engagement.overall.click_to_open_rate).toEqual({ rate: 0.1733, numerator: 13, denominator: 75 });
    expect(engagement.by_campaign.map((row) => [row.campaign_id, row.delivered, row.unsubscribed])).toEqual([
      ['camp_1', 275, 2],
      [null, 50, 0],
    ]);
  });

  it('keeps only the campaign asked for', () => {
    // Act
    const engagement = emailEngagementOf(items, 'camp_1');
    // Assess
    expect(engagement.overall.sent).toBe(300);
    expect(engagement.by_campaign.map((row) => row.campaign_id)).toEqual(['camp_1']);
  });
});
