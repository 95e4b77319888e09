import type { APIGatewayProxyEvent } from 'aws-lambda';
import { env } from '#shared/env';

/** The query string as sent, rebuilt from the (decoded) parameters API Gateway passes. */
function queryOf(event: APIGatewayProxyEvent): string {
  const multi = event.multiValueQueryStringParameters ?? {};
  const pairs = Object.entries(multi).flatMap(([name, values]) => (values ?? []).map((value) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`));
  if (pairs.length === 0) {
    const single = Object.entries(event.queryStringParameters ?? {}).filter((entry): entry is [string, string] => entry[1] !== undefined);
    pairs.push(...single.map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`));
  }
  return pairs.length === 0 ? '' : `?${pairs.join('&')}`;
}

/**
 * The public URL the sender posted to, which URL-signing schemes (Square, Twilio) sign:
 * WEBHOOK_PUBLIC_BASE_URL + path + query when configured (behind API Gateway's own host or a CDN,
 * the Host header is not the URL the sender knows), else `${X-Forwarded-Proto ?? 'https'}://${Host}${path}` + query.
 */
export function publicUrlOf(event: APIGatewayProxyEvent, headers: Readonly<Record<string, string>>): string {
  const base = env.WEBHOOK_PUBLIC_BASE_URL?.replace(/\/+$/, '') ?? `${headers['x-forwarded-proto'] ?? 'https'}://${headers.host ?? ''}`;
  return `${base}${event.path}${queryOf(event)}`;
}
