import { createQueueConsumer } from './consume';

// The processors (one per message kind) are added by the issues that produce these messages.
export const handler = createQueueConsumer('notifications', {});
