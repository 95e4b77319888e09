import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { RouteMatch } from './route-matcher';

/** What the local server read off the socket. */
export interface RawHttpRequest {
  readonly method: string;
  /** Path and query exactly as sent, e.g. `/api/v1/payments?status=pending`. */
  readonly url: string;
  /** Node's `rawHeaders`: name, value, name, value ... in the order received. */
  readonly rawHeaders: readonly string[];
  readonly body: Buffer;
  readonly sourceIp: string;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (n: number): string => String(n).padStart(2, '0');
/** API Gateway's `requestTime` form: `22/Nov/2026:15:56:14 +0000`. */
const requestTime = (date: Date): string =>
  `${pad(date.getUTCDate())}/${MONTHS[date.getUTCMonth()]}/${date.getUTCFullYear()}:${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())} +0000`;

function decodeQueryComponent(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

function collect(pairs: Iterable<readonly [string, string]>) {
  const single: Record<string, string> = {};
  const multi: Record<string, string[]> = {};
  for (const [name, value] of pairs) {
    Object.defineProperty(single, name, { value, enumerable: true, writable: true, configurable: true });
    // Own properties only: a key such as `toString` or `__proto__` must not meet Object.prototype.
    if (Object.hasOwn(multi, name)) (multi[name] as string[]).push(value);
    else Object.defineProperty(multi, name, { value: [value], enumerable: true, writable: true, configurable: true });
  }
  return { single, multi, empty: Object.keys(single).length === 0 };
}

function headerPairs(rawHeaders: readonly string[]): Array<readonly [string, string]> {
  const pairs: Array<readonly [string, string]> = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) pairs.push([rawHeaders[i] as string, rawHeaders[i + 1] as string]);
  return pairs;
}

function queryPairs(query: string): Array<readonly [string, string]> {
  if (query === '') return [];
  return query
    .split('&')
    .filter((part) => part !== '')
    .map((part) => {
      const eq = part.indexOf('=');
      return eq === -1 ? [decodeQueryComponent(part), ''] : [decodeQueryComponent(part.slice(0, eq)), decodeQueryComponent(part.slice(eq + 1))];
    });
}

/**
 * Builds the REST API (payload v1) proxy event API Gateway would send for this request: headers
 * and query strings single- and multi-valued (the single form holds the last value), the path
 * and path parameters still percent-encoded, the body as received (UTF-8 text, as a REST API
 * without binary media types passes it), and a requestContext with a fresh request id.
 */
export function toApiGatewayEvent(request: RawHttpRequest, match: RouteMatch, requestId: string, now: Date = new Date()): APIGatewayProxyEvent {
  const queryStart = request.url.indexOf('?');
  const path = queryStart === -1 ? request.url : request.url.slice(0, queryStart);
  const query = collect(queryPairs(queryStart === -1 ? '' : request.url.slice(queryStart + 1)));
  const headers = collect(headerPairs(request.rawHeaders));
  const headerValue = (name: string): string | undefined => Object.entries(headers.single).find(([key]) => key.toLowerCase() === name)?.[1];
  return {
    resource: match.route.path,
    path,
    httpMethod: request.method,
    headers: headers.single,
    multiValueHeaders: headers.multi,
    queryStringParameters: query.empty ? null : query.single,
    multiValueQueryStringParameters: query.empty ? null : query.multi,
    pathParameters: match.pathParameters === null ? null : { ...match.pathParameters },
    stageVariables: null,
    body: request.body.length === 0 ? null : request.body.toString('utf8'),
    isBase64Encoded: false,
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      authorizer: null,
      domainName: headerValue('host') ?? 'localhost',
      domainPrefix: 'localhost',
      extendedRequestId: requestId,
      httpMethod: request.method,
      identity: {
        accessKey: null,
        accountId: null,
        apiKey: null,
        apiKeyId: null,
        caller: null,
        clientCert: null,
        cognitoAuthenticationProvider: null,
        cognitoAuthenticationType: null,
        cognitoIdentityId: null,
        cognitoIdentityPoolId: null,
        principalOrgId: null,
        sourceIp: request.sourceIp,
        user: null,
        userAgent: headerValue('user-agent') ?? null,
        userArn: null,
      },
      path: `/local${path}`,
      protocol: 'HTTP/1.1',
      requestId,
      requestTime: requestTime(now),
      requestTimeEpoch: now.getTime(),
      resourceId: 'local',
      resourcePath: match.route.path,
      stage: 'local',
    },
  };
}
