import { createQueueConsumer } from './consume';
import { recordInboundDeadLetter } from './inbound-dead-letters';
import { processProviderWebhook } from './provider-webhook';
import { PROVIDER_WEBHOOK_KIND } from '#data/webhook-log-repository';

// One processor per message kind: verified provider deliveries stored by the webhook intake. A
// delivery that fails for good is recorded under its merchant before it goes to the DLQ.
export const handler = createQueueConsumer('inbound-webhooks', { [PROVIDER_WEBHOOK_KIND]: processProviderWebhook }, { onLastFailure: recordInboundDeadLetter });
