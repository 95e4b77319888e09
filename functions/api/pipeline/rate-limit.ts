import type { ApiKeyPrincipal } from '#api/operation';
import { RateLimitExceededError } from '#core/errors';
import { keys } from '#data/keys';
import { getMerchantCached } from '#data/merchant-repository';
import { countInWindow } from '#data/rate-limit-repository';
import type { Headers } from './responses';

const WINDOW_SECONDS = 60;
/** DESIGN §1: 100 requests a minute per key unless the merchant is configured otherwise. */
export const DEFAULT_REQUESTS_PER_MINUTE = 100;
/** Separate buckets of DESIGN §1. */
export const AI_GENERATION_PER_MINUTE = 100;
export const WIDGET_INIT_PER_MINUTE_PER_IP = 30;
/** GET /ai/ping is public and calls the model: 30 a minute per client IP. */
export const AI_PING_PER_MINUTE_PER_IP = 30;

export interface RateLimitState {
  readonly limit: number;
  readonly remaining: number;
  /** Unix time (seconds) the window resets. */
  readonly reset: number;
}

export const rateLimitHeaders = (state: RateLimitState): Headers => ({
  'X-RateLimit-Limit': String(state.limit),
  'X-RateLimit-Remaining': String(state.remaining),
  'X-RateLimit-Reset': String(state.reset),
});

async function take(windowKey: (windowStart: number) => Parameters<typeof countInWindow>[0], limit: number, now: Date, what: string): Promise<RateLimitState> {
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const windowStart = nowSeconds - (nowSeconds % WINDOW_SECONDS);
  const reset = windowStart + WINDOW_SECONDS;
  const counted = await countInWindow(windowKey(windowStart), limit, reset);
  if (counted === 'exceeded') {
    const retryAfter = Math.max(1, reset - nowSeconds);
    throw new RateLimitExceededError(`Too many requests: ${what} allows ${limit} a minute. Retry after ${retryAfter} s.`, retryAfter, {
      headers: rateLimitHeaders({ limit, remaining: 0, reset }),
    });
  }
  return { limit, remaining: Math.max(0, limit - counted.count), reset };
}

/**
 * The per-key limit: reads (GET) and writes count in separate buckets with the merchant's
 * read and write limits (default 100 each). Throws 429 with the headers and `retry_after`.
 */
export async function limitApiKey(principal: ApiKeyPrincipal, method: string, now: Date = new Date()): Promise<RateLimitState> {
  const merchant = await getMerchantCached(principal.merchantId, now.getTime());
  const kind = method === 'GET' ? 'read' : 'write';
  const limit = (kind === 'read' ? merchant?.rate_limits.read_per_minute : merchant?.rate_limits.write_per_minute) ?? DEFAULT_REQUESTS_PER_MINUTE;
  return take((start) => keys.rateLimitWindow(principal.merchantId, `key:${principal.apiKey.id}:${kind}`, start), limit, now, `this API key (${kind}s)`);
}

/** AI generation: 100 a minute per merchant, apart from the API limit. */
export const limitAiGeneration = (merchantId: string, now: Date = new Date()): Promise<RateLimitState> =>
  take((start) => keys.rateLimitWindow(merchantId, 'ai-generation', start), AI_GENERATION_PER_MINUTE, now, 'AI generation');

/** Widget init: 30 a minute per client IP. */
export const limitWidgetInit = (ip: string, now: Date = new Date()): Promise<RateLimitState> =>
  take((start) => keys.ipRateLimitWindow(ip, 'widget-init', start), WIDGET_INIT_PER_MINUTE_PER_IP, now, 'widget init from this address');

/** AI ping: 30 a minute per client IP (the route is public, and each ping is a real model call). */
export const limitAiPing = (ip: string, now: Date = new Date()): Promise<RateLimitState> =>
  take((start) => keys.ipRateLimitWindow(ip, 'ai-ping', start), AI_PING_PER_MINUTE_PER_IP, now, 'AI ping from this address');
