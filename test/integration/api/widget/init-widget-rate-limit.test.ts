/**
 * POST /api/widget/init's limit of 30 requests a minute per client address (DESIGN §1), in a file
 * of its own so that no other test shares 127.0.0.1's window: the 31st request of a minute is 429
 * with `retry_after` and `Retry-After`, whatever its body (guesses are counted too).
 */
import type { LocalStack } from '#lib/local/local-stack';
import { WIDGET_INIT_PER_MINUTE_PER_IP } from '#api/pipeline/rate-limit';
import { awayFromMinuteBoundary, call } from '#test/fixtures/http';
import { originOf, startTestStack } from '#test/fixtures/local-stack';

describe('POST /api/widget/init rate limit', () => {
  let stack: LocalStack;

  beforeAll(async () => {
    stack = await startTestStack();
  }, 60_000);

  afterAll(async () => {
    await stack.stop();
  });

  it('answers 429 from the 31st request of a minute from one address', async () => {
    // Prepare: a burst inside one window; signatures that would be refused, since guesses count.
    await awayFromMinuteBoundary(20);
    const body = { merchant_id: 'merch_unknown', customer_id: 'cus_1', timestamp: Math.floor(Date.now() / 1000), signature: 'ab'.repeat(32) };
    // Act
    const statuses: number[] = [];
    for (let i = 0; i < WIDGET_INIT_PER_MINUTE_PER_IP; i += 1) {
      statuses.push((await call(`${originOf(stack)}/api/widget/init`, { method: 'POST', body })).status);
    }
    const limited = await call<{ error: { code: string; retry_after: number } }>(`${originOf(stack)}/api/widget/init`, { method: 'POST', body });
    // Assess
    expect(statuses).toEqual(Array(WIDGET_INIT_PER_MINUTE_PER_IP).fill(401));
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('rate_limit_exceeded');
    expect(limited.body.error.retry_after).toBeGreaterThan(0);
    expect(Number(limited.headers.get('retry-after'))).toBe(limited.body.error.retry_after);
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
  }, 90_000);
});
