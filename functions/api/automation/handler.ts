import { createGroupHandler } from '#api/group-handler';
import { apiKeyAuth } from '#api/pipeline/api-key';
import { getAutomationSample } from './get-automation-sample';
import { pollAutomationEvents } from './poll-automation-events';
import { automationRoutes } from './routes';
import { subscribeAutomationHook } from './subscribe-automation-hook';
import { unsubscribeAutomationHook } from './unsubscribe-automation-hook';

/** The automation Lambda: REST-hook subscriptions the polling fallback and sample payloads. */
export const handler = createGroupHandler(
  automationRoutes,
  { subscribeAutomationHook, unsubscribeAutomationHook, pollAutomationEvents, getAutomationSample },
  apiKeyAuth,
);
