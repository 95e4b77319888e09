import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { z } from 'zod';
import type { ApiKeyRecord } from '../core/api-keys';
import type { Headers } from './pipeline/responses';
import type { RouteDef, RouteSchemas } from './route-types';

/** Who is calling, once the route's auth kind has been satisfied. */
export interface Caller {
  /** The tenant of the request: the key's merchant. Nothing in the path or body can change it. */
  readonly merchantId: string;
  readonly apiKey: ApiKeyRecord;
}

type Parsed<T, Otherwise> = T extends z.ZodType ? z.output<T> : Otherwise;

/** What an operation receives: the request, validated against its row's schemas. */
export interface OperationRequest<S extends RouteSchemas = RouteSchemas> {
  readonly event: APIGatewayProxyEvent;
  readonly route: RouteDef;
  readonly requestId: string;
  /** Present on api_key routes, and on optional_api_key routes when a key was given. */
  readonly caller: Caller | undefined;
  /** Path parameters, percent-decoded. */
  readonly params: Parsed<S['params'], Readonly<Record<string, string>>>;
  readonly query: Parsed<S['query'], Readonly<Record<string, string>>>;
  readonly body: Parsed<S['body'], undefined>;
}

export interface OperationResult {
  /** @default 200 */
  readonly statusCode?: number;
  /** Serialised as JSON; already enveloped where the route's form wants an envelope. */
  readonly body: unknown;
  readonly headers?: Headers;
}

/** One operation of the route table: takes the request, returns the body, throws AppErrors. */
export interface Operation {
  /** The very schemas object of the operation's route row (checked when the group loads). */
  readonly schemas: RouteSchemas;
  run(request: OperationRequest): Promise<OperationResult>;
}

/**
 * Declares an operation with the schemas of its route row, so its input is typed from them
 * and the group handler validates with exactly the same objects.
 *
 * @example export const getThing = defineOperation(getThingSchemas, async ({ params }) => ({ body: ... }));
 */
export function defineOperation<S extends RouteSchemas>(schemas: S, run: (request: OperationRequest<S>) => Promise<OperationResult>): Operation {
  return { schemas, run: run as Operation['run'] };
}
