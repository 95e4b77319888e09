import { createGroupHandler } from '#api/group-handler';
import { pollAutomationEvents } from './poll-automation-events';
import { automationRoutes } from './routes';
import { subscribeAutomationHook } from './subscribe-automation-hook';
import { unsubscribeAutomationHook } from './unsubscribe-automation-hook';

/** The automation Lambda: REST-hook subscriptions and the polling fallback; rows not built yet answer 501. */
export const handler = createGroupHandler(automationRoutes, { subscribeAutomationHook, unsubscribeAutomationHook, pollAutomationEvents });
