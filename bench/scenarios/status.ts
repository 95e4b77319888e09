import { handler } from '#api/status/handler';
import { expectingStatus, rawKeyAndRateLimit, routeInvoker } from '#bench/requests';
import type { Scenario } from '#bench/scenario';

export const scenario: Scenario = {
  name: 'GET /api/v1/status with a key',
  notes: [
    'raw = consistent GetItem of the API-key hash item + the rate-limit conditional UpdateItem (expressions as rate-limit-repository), on the same document client',
    'merchant GetItem: getMerchantCached reads it at most once per 30 s per warm function; the raw side keeps the same 30 s cache, so both make it equally often (~0 per request here, 1/(30 s x requests per second) in general)',
  ],

  async prepare(fixture) {
    const path = '/api/v1/status';
    const invoke = routeInvoker(handler, 'GET', path, fixture);

    const first = await invoke();
    const data = (JSON.parse(first.body) as { data?: { authenticated?: unknown; merchant_id?: unknown } }).data;
    if (first.statusCode !== 200 || data?.authenticated !== true || data.merchant_id !== fixture.merchantId) {
      throw new Error(`GET ${path} with the bench key should answer 200 with authenticated: true, got ${first.statusCode}: ${first.body.slice(0, 300)}`);
    }

    return {
      handler: expectingStatus(invoke, `GET ${path}`),
      raw: rawKeyAndRateLimit(fixture, 'read'),
    };
  },
};
