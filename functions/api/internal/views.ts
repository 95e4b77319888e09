import { rawBodyOf, type WebhookLogRecord } from '#data/webhook-log-repository';

/** The URL without its query string or fragment: a provider's URL may carry a token there. */
const withoutQuery = (url: string): string => url.split(/[?#]/, 1)[0] ?? '';

/** The body as JSON when it is JSON (whatever the content type says), else null. */
function payloadOf(log: WebhookLogRecord): unknown {
  if (log.body_base64) return null;
  try {
    return JSON.parse(log.body) as unknown;
  } catch {
    return null;
  }
}

/** A stored provider delivery as GET /internal/webhook/{id} answers it. */
export function storedWebhookView(log: WebhookLogRecord) {
  return {
    id: log.id,
    object: 'webhook_log' as const,
    merchant_id: log.merchant_id,
    psp: log.psp,
    route_variant: log.route_variant,
    customer_id: log.customer_id ?? null,
    received_at: log.received_at,
    expires_at: new Date(log.expires_at * 1000).toISOString(),
    url: withoutQuery(log.url),
    headers: log.content_type === null ? {} : { 'content-type': log.content_type },
    body: log.body,
    body_encoding: log.body_base64 ? ('base64' as const) : ('utf8' as const),
    payload: payloadOf(log),
    size: rawBodyOf(log).length,
  };
}
