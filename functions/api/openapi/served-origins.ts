import type { APIGatewayProxyEvent } from 'aws-lambda';
import { env } from '#shared/env';
import type { ApiName } from '#api/route-types';

/** A host header as clients send it: a DNS name or an IP literal, and an optional port. Anything else is ignored. */
const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;
/** API Gateway's own hosts, whose URLs carry the stage as their first path segment. */
const EXECUTE_API_HOST = /\.execute-api\.[a-z0-9-]+\.amazonaws\.com(?:\.cn)?(?::\d+)?$/;
const STAGE = /^[A-Za-z0-9_-]{1,128}$/;

const headerOf = (event: APIGatewayProxyEvent, name: string): string | undefined =>
  Object.entries(event.headers ?? {})
    .find(([key, value]) => key.toLowerCase() === name && value !== undefined)?.[1]
    ?.trim();

/**
 * The origin a request reached, as its client sees it: `https://<id>.execute-api.<region>.amazonaws.com/<stage>`
 * on API Gateway's own host, else the scheme of `X-Forwarded-Proto` (API Gateway and proxies set
 * it; `http` without one, as the local server is) and the `Host` header. Undefined when the host
 * is not a plain host name, so no header can write arbitrary text into the document.
 */
export function requestOrigin(event: APIGatewayProxyEvent): string | undefined {
  const host = headerOf(event, 'host') ?? event.requestContext?.domainName;
  if (host === undefined || !HOST.test(host)) return undefined;
  if (EXECUTE_API_HOST.test(host)) {
    const stage = event.requestContext?.stage;
    return stage !== undefined && STAGE.test(stage) ? `https://${host}/${stage}` : `https://${host}`;
  }
  const forwarded = headerOf(event, 'x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase();
  return `${forwarded === 'https' ? 'https' : 'http'}://${host}`;
}

/**
 * Where each API is served, as far as a request to the merchant API tells: the merchant API at
 * the request's origin; the webhook API at WEBHOOK_PUBLIC_BASE_URL when set; and, in the local
 * stack (in-process queues), where one server answers for all three APIs, the edge and webhook
 * APIs at the same origin. On AWS the edge API's URL is not known here, so it keeps the default.
 */
export function servedOrigins(event: APIGatewayProxyEvent): Partial<Record<ApiName, string>> {
  const origin = requestOrigin(event);
  const oneServer = env.QUEUE_DRIVER === 'local' && origin !== undefined;
  const webhook = env.WEBHOOK_PUBLIC_BASE_URL?.replace(/\/+$/, '') ?? (oneServer ? origin : undefined);
  return {
    ...(origin === undefined ? {} : { merchant: origin }),
    ...(oneServer ? { edge: origin } : {}),
    ...(webhook === undefined ? {} : { webhook }),
  };
}
