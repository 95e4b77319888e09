import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { handler } from '#api/widget/handler';
import { documentClient } from '#data/client';
import { setBranding } from '#data/hosted-settings-repository';
import { hostedKeys } from '#data/keys';
import { env } from '#shared/env';
import { expectingStatus, routeInvoker } from '#bench/requests';
import type { Scenario } from '#bench/scenario';

export const scenario: Scenario = {
  name: 'GET /api/widget/branding/{merchant_id} (public)',
  notes: [
    "raw = one consistent GetItem of the merchant's hosted settings: what an uncached request reads beside the merchant (itself cached 30 s)",
    'the function keeps each answer 5 minutes (and CloudFront and browsers too: Cache-Control public, max-age=300), so the handler side reads nothing after its first request: the ratio shows the pipeline against one GetItem, not the cost of a miss',
  ],

  async prepare(fixture) {
    await setBranding(fixture.merchantId, { primary_color: '#5b21b6', merchant_name: 'Bench Co' });
    const path = `/api/widget/branding/${fixture.merchantId}`;
    const invoke = routeInvoker(handler, 'GET', path, fixture);
    const first = await invoke();
    if (first.statusCode !== 200 || !first.body.includes('#5b21b6')) {
      throw new Error(`GET ${path} should answer 200 with the branding, got ${first.statusCode}: ${first.body.slice(0, 300)}`);
    }
    const settings = hostedKeys.settings(fixture.merchantId);
    return {
      handler: expectingStatus(invoke, `GET ${path}`),
      async raw() {
        await documentClient.send(new GetCommand({ TableName: env.TABLE_NAME, Key: settings, ConsistentRead: true }));
      },
    };
  },
};
