import { DUNNING_EMAIL_KIND, SEND_MESSAGE_KIND } from '#contracts/notifications';
import { createQueueConsumer } from './consume';
import { sendMessage } from './send-message';

// One processor sends every message, whatever its channel; `dunning_email` is the older kind.
export const handler = createQueueConsumer('notifications', { [SEND_MESSAGE_KIND]: sendMessage, [DUNNING_EMAIL_KIND]: sendMessage });
