import { type AwsClientConfig, AwsServiceError, SignedAwsClient } from './signed-request';
import { awsJsonFailure } from './json-protocol';

/**
 * API Gateway's connection management API for a WebSocket API's stage
 * (`https://{api-id}.execute-api.{region}.amazonaws.com/{stage}`), signed with SigV4 (service
 * `execute-api`, the `execute-api:ManageConnections` grant) rather than through
 * `@aws-sdk/client-apigatewaymanagementapi`: PostToConnection (`POST @connections/{id}`, a text
 * message as the UTF-8 body) and DeleteConnection (`DELETE @connections/{id}`, which closes the
 * browser's socket and fires `$disconnect`). A connection that no longer exists (or not yet: a
 * post during `$connect`) is 410 GoneException, answered as `'gone'`.
 */
export interface ConnectionManagement {
  post(connectionId: string, text: string): Promise<'sent' | 'gone'>;
  delete(connectionId: string): Promise<'deleted' | 'gone'>;
}

const isGone = (error: unknown): boolean => error instanceof AwsServiceError && (error.status === 410 || error.code === 'GoneException');

export function apiGatewayConnections(endpoint: string, config: AwsClientConfig & { readonly region: string }): ConnectionManagement {
  const client = new SignedAwsClient('execute-api', () => endpoint, { ...config, endpoint }, awsJsonFailure('API Gateway'));
  const pathOf = (connectionId: string) => `/@connections/${encodeURIComponent(connectionId)}`;
  return {
    async post(connectionId, text) {
      try {
        await client.send({ method: 'POST', path: pathOf(connectionId), headers: { 'content-type': 'text/plain; charset=utf-8' }, body: text });
        return 'sent';
      } catch (error) {
        if (isGone(error)) return 'gone';
        throw error;
      }
    },
    async delete(connectionId) {
      try {
        await client.send({ method: 'DELETE', path: pathOf(connectionId) });
        return 'deleted';
      } catch (error) {
        if (isGone(error)) return 'gone';
        throw error;
      }
    },
  };
}
