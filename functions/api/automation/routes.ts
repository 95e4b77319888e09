import { type RouteDef, READ, WRITE, v1 } from '#api/route-rows';
import { getAutomationSampleSchemas, pollAutomationEventsSchemas, subscribeAutomationHookSchemas, unsubscribeAutomationHookSchemas } from './schemas';

/** The `automation` group's rows of the route table: its Lambda serves exactly these. */
export const automationRoutes: readonly RouteDef[] = [
  v1('automation', 'POST', '/automation/subscribe', 'subscribeAutomationHook', WRITE, 'Register a REST-hook subscription', {
    schemas: subscribeAutomationHookSchemas,
  }),
  v1('automation', 'DELETE', '/automation/subscribe', 'unsubscribeAutomationHook', WRITE, 'Remove a REST-hook subscription', {
    schemas: unsubscribeAutomationHookSchemas,
  }),
  v1('automation', 'GET', '/automation/poll/{eventType}', 'pollAutomationEvents', READ, 'Last 50 events of a type', { schemas: pollAutomationEventsSchemas }),
  v1('automation', 'GET', '/automation/sample/{eventType}', 'getAutomationSample', READ, 'Sample event of a type', { schemas: getAutomationSampleSchemas }),
];
