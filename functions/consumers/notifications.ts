import { createQueueConsumer } from './consume';
import { DUNNING_EMAIL_KIND } from '#contracts/notifications';
import { sendDunningEmail } from './dunning-email';

// One processor per message kind; the issues that produce other kinds (SMS, WhatsApp,
// pre-dunning) add theirs.
export const handler = createQueueConsumer('notifications', { [DUNNING_EMAIL_KIND]: sendDunningEmail });
