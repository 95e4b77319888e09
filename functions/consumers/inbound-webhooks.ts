import { createQueueConsumer } from './consume';
import { processProviderWebhook } from './provider-webhook';
import { PROVIDER_WEBHOOK_KIND } from '../data/webhook-log-repository';

// One processor per message kind: verified provider deliveries stored by the webhook intake.
export const handler = createQueueConsumer('inbound-webhooks', { [PROVIDER_WEBHOOK_KIND]: processProviderWebhook });
