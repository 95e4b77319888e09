import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { RouteDef } from './route-types';
import type { Headers } from '../shared/http/responses';
import type { ApiKeyRecord } from '../core/merchants';

/** Who is calling, once the route's auth kind has been satisfied. */
export interface Caller {
  /** The tenant of the request: the key's merchant. Nothing in the path or body can change it. */
  readonly merchantId: string;
  readonly apiKey: ApiKeyRecord;
}

export interface OperationRequest {
  readonly event: APIGatewayProxyEvent;
  readonly route: RouteDef;
  readonly requestId: string;
  /** Present on api_key routes, and on optional_api_key routes when a key was given. */
  readonly caller: Caller | undefined;
}

export interface OperationResult {
  /** @default 200 */
  readonly statusCode?: number;
  /** Serialised as JSON; already enveloped where the route's form wants an envelope. */
  readonly body: unknown;
  readonly headers?: Headers;
}

/** One operation of the route table: takes the request, returns the body, throws AppErrors. */
export type Operation = (request: OperationRequest) => Promise<OperationResult>;
