import { UpgradeRequiredError } from '#core/errors';
import { defineOperation } from '#api/operation';
import { subscribeDatabaseSchemas } from './schemas';

/**
 * GET /ws/v1/database/{name}/subscribe as plain HTTP: authenticated as the WebSocket is (the
 * cookie, or a ticket, checked but not spent), then 426 `upgrade_required` with `Upgrade:
 * websocket`. The socket itself is opened by the local server's upgrade (lib/local/websocket-proxy.ts)
 * or, on AWS, API Gateway's WebSocket API (docs/session-proxy.md).
 */
export const subscribeDatabase = defineOperation({ auth: 'session_cookie', schemas: subscribeDatabaseSchemas }, async ({ params }) => {
  throw new UpgradeRequiredError(`GET /ws/v1/database/${params.name}/subscribe opens a WebSocket: send "Connection: Upgrade" and "Upgrade: websocket".`, {
    headers: { Upgrade: 'websocket', Connection: 'Upgrade' },
  });
});
