import { checkCustomHostnames } from './check-custom-hostnames';
import { dispatchDueWebhooks } from './dispatch-due-webhooks';
import { dispatchScheduledMessages } from './dispatch-messages';
import { executeDueRetries } from './execute-due-retries';
import { createJobHandler } from './run-job';

// Tasks not listed here are added by the issues that build them; until then each is reported not_implemented.
export const handler = createJobHandler('every-minute', {
  'execute-due-retries': (input) => executeDueRetries(input),
  'flush-notifications': (input) => dispatchScheduledMessages(input),
  'dispatch-due-webhooks': (input) => dispatchDueWebhooks(input),
  'check-custom-hostnames': (input) => checkCustomHostnames(input),
});
