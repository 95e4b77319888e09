import { RateLimitExceededError } from '#core/errors';
import {
  AI_GENERATION_PER_MINUTE,
  AI_PING_PER_MINUTE_PER_IP,
  WIDGET_INIT_PER_MINUTE_PER_IP,
  limitAiGeneration,
  limitAiPing,
  limitWidgetInit,
} from '#api/pipeline/rate-limit';

const at = (iso: string): Date => new Date(iso);

async function passes(limit: () => Promise<unknown>, times: number): Promise<number> {
  let passed = 0;
  for (let i = 0; i < times; i += 1) {
    try {
      await limit();
      passed += 1;
    } catch (error) {
      if (!(error instanceof RateLimitExceededError)) throw error;
    }
  }
  return passed;
}

describe('the separate rate-limit buckets', () => {
  it('lets one IP initialise the widget 30 times a minute, apart from other IPs', async () => {
    // Prepare
    const now = at('2026-11-22T10:00:05Z');
    // Act
    const first = await passes(() => limitWidgetInit('203.0.113.9', now), WIDGET_INIT_PER_MINUTE_PER_IP + 5);
    const other = await passes(() => limitWidgetInit('203.0.113.10', now), 1);
    const nextMinute = await passes(() => limitWidgetInit('203.0.113.9', at('2026-11-22T10:01:00Z')), 1);
    // Assess
    expect(first).toBe(30);
    expect(other).toBe(1);
    expect(nextMinute).toBe(1);
  });

  it('refuses the 31st widget init with retry_after until the window ends and the headers', async () => {
    // Prepare
    const now = at('2026-11-22T11:00:45Z');
    await passes(() => limitWidgetInit('198.51.100.7', now), WIDGET_INIT_PER_MINUTE_PER_IP);
    // Act
    const refused = await limitWidgetInit('198.51.100.7', now).catch((error: unknown) => error);
    // Assess
    expect(refused).toBeInstanceOf(RateLimitExceededError);
    expect((refused as RateLimitExceededError).retryAfterSeconds).toBe(15);
    expect((refused as RateLimitExceededError).headers).toEqual({
      'X-RateLimit-Limit': '30',
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-Reset': String(Date.parse('2026-11-22T11:01:00Z') / 1000),
    });
  });

  it('lets a merchant generate AI text 100 times a minute, counted per merchant', async () => {
    // Prepare
    const now = at('2026-11-22T12:30:10Z');
    // Act
    const a = await passes(() => limitAiGeneration('merch_a', now), AI_GENERATION_PER_MINUTE + 3);
    const b = await passes(() => limitAiGeneration('merch_b', now), 1);
    // Assess
    expect(a).toBe(100);
    expect(b).toBe(1);
  });

  it('lets an address ping the AI model 30 times a minute, apart from its widget inits', async () => {
    // Prepare
    const now = at('2026-11-22T12:45:05Z');
    // Act
    const pings = await passes(() => limitAiPing('198.51.100.7', now), AI_PING_PER_MINUTE_PER_IP + 2);
    const widget = await passes(() => limitWidgetInit('198.51.100.7', now), 1);
    const otherAddress = await passes(() => limitAiPing('198.51.100.8', now), 1);
    // Assess
    expect(pings).toBe(30);
    expect(widget).toBe(1);
    expect(otherAddress).toBe(1);
  });

  it('counts exactly under concurrency', async () => {
    // Prepare
    const now = at('2026-11-22T13:00:00Z');
    // Act
    const results = await Promise.allSettled(Array.from({ length: 45 }, () => limitWidgetInit('192.0.2.1', now)));
    // Assess
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(30);
    expect(results.filter((r) => r.status === 'rejected' && r.reason instanceof RateLimitExceededError)).toHaveLength(15);
  });
});
