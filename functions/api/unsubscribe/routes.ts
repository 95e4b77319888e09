import { type RouteDef, at } from '#api/route-rows';
import { showUnsubscribeSchemas, unsubscribeSchemas } from './schemas';

/** The `unsubscribe` group's rows (edge API, public): its Lambda serves exactly these. */
export const unsubscribeRoutes: readonly RouteDef[] = [
  at('edge', 'unsubscribe', 'GET', '/unsubscribe/{token}', 'showUnsubscribe', 'public', [], 'Unsubscribe confirmation page', showUnsubscribeSchemas),
  at('edge', 'unsubscribe', 'POST', '/unsubscribe/{token}', 'unsubscribe', 'public', [], 'One-click unsubscribe (RFC 8058)', unsubscribeSchemas),
];
