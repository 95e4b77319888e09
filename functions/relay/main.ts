import { apiGatewayConnections } from '#adapters/aws/websocket-connections';
import { relayQueue } from '#adapters/relay-queue';
import { logger } from '#shared/logger';
import { createRelay, DEFAULT_RELAY_LIMITS, type RelayLimits } from './relay';
import { connectionUpstream } from './upstream';

/**
 * The relay's process (ECS Fargate; its image: functions/relay/Dockerfile). Configuration, all
 * set by CDK (lib/constructs/websocket-relay.ts):
 * - `RELAY_QUEUE_URL`: the relay's SQS FIFO queue;
 * - `RELAY_MANAGEMENT_ENDPOINT`: the WebSocket API stage's connection management endpoint
 *   (`https://{api-id}.execute-api.{region}.amazonaws.com/{stage}`);
 * - `RELAY_MAX_CONNECTIONS` (default 1000): upstream sockets held at once;
 * - `TABLE_NAME`, `SECRETS_KMS_KEY_ID`, `WS_UPSTREAM_URL`, `AWS_REGION`: as the Lambdas have them.
 * SIGTERM (ECS stopping the task) shuts down gracefully (functions/relay/relay.ts), then exits.
 */
function required(name: string): string {
  const value = process.env[name]?.trim();
  if (value === undefined || value === '') throw new Error(`${name} is not set`);
  return value;
}

function limitsFromEnvironment(): Partial<RelayLimits> {
  const raw = process.env.RELAY_MAX_CONNECTIONS;
  if (raw === undefined || raw === '') return {};
  if (!/^\d+$/.test(raw) || Number(raw) < 1) throw new Error('RELAY_MAX_CONNECTIONS must be a whole number of at least 1');
  return { maxConnections: Number(raw) };
}

function main(): void {
  required('RELAY_QUEUE_URL');
  const relay = createRelay(
    {
      queue: relayQueue(),
      connections: apiGatewayConnections(required('RELAY_MANAGEMENT_ENDPOINT'), { region: required('AWS_REGION') }),
      upstreamOf: connectionUpstream,
    },
    limitsFromEnvironment(),
  );
  relay.start();
  logger.info('relay started', { max_connections: limitsFromEnvironment().maxConnections ?? DEFAULT_RELAY_LIMITS.maxConnections });
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info('relay received signal', { signal });
    relay.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main();
