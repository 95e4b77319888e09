import { openSecret, sealSecret } from '#adapters/secret-box';
import { deliverSafely, type DeliveryResult } from '#adapters/http/safe-delivery';
import type { AddressResolver } from '#adapters/dns/resolver';
import { webhookAddressPolicy, webhookResolver } from '#adapters/http/webhook-delivery-config';
import { ValidationError } from '#core/errors';
import { timeOrderedId } from '#core/ids';
import { checkResolvedAddresses, hostOf, parseWebhookUrl } from '#core/webhooks/address-policy';
import { EVENT_TYPES, isEventType, testPayload } from '#core/webhooks/events';
import { generateSigningSecret, rotatedOut, signedHeaders } from '#core/webhooks/signature';
import {
  createWebhookEndpoint,
  getWebhookEndpoint,
  newWebhookEndpointId,
  recordWebhookDelivery,
  saveWebhookEndpoint,
  type WebhookDeliveryRecord,
  type WebhookEndpointRecord,
} from '#data/webhook-endpoint-repository';

/**
 * Webhook endpoints' use cases: saving one (URL rules and a resolution now, events against the
 * catalogue, the secret made and sealed), changing one (a rotation keeps the old secret signing
 * 24 h) and sending it a real signed test event through the SSRF-safe client, logged.
 */

export const MAX_DESCRIPTION_LENGTH = 500;

/** The secret box's context of an endpoint's secrets: a sealed value opens only on its own endpoint. */
const secretContext = (endpoint: Pick<WebhookEndpointRecord, 'merchant_id' | 'id'>) => ({
  merchant_id: endpoint.merchant_id,
  purpose: 'webhook_endpoint_secret',
  endpoint_id: endpoint.id,
});

/** The URL, checked and resolved now (every address must be deliverable): 422 `param: url` otherwise. */
export async function checkEndpointUrl(raw: string, resolver: AddressResolver = webhookResolver()): Promise<string> {
  const policy = webhookAddressPolicy();
  const url = parseWebhookUrl(raw, policy);
  let addresses: string[];
  try {
    addresses = await resolver.resolve(hostOf(url));
  } catch (error) {
    throw new ValidationError(`url host ${hostOf(url)} could not be resolved`, { param: 'url', cause: error });
  }
  checkResolvedAddresses(url, addresses, policy);
  return url.href;
}

/** The subscribed events: every catalogued name when absent; 422 `param: events` for an unknown or empty list. */
export function checkEvents(events: readonly string[] | undefined): string[] {
  if (events === undefined) return [...EVENT_TYPES];
  if (events.length === 0) throw new ValidationError('events must name at least one event type (omit it for all)', { param: 'events' });
  const unknown = events.filter((name) => !isEventType(name));
  if (unknown.length > 0) throw new ValidationError(`Unknown event types: ${unknown.join(', ')}. Known: ${EVENT_TYPES.join(', ')}`, { param: 'events' });
  return [...new Set(events)];
}

function checkDescription(description: string | undefined | null): string | null {
  if (description === undefined || description === null) return null;
  if (description.length > MAX_DESCRIPTION_LENGTH)
    throw new ValidationError(`description must be at most ${MAX_DESCRIPTION_LENGTH} characters`, { param: 'description' });
  return description;
}

export interface EndpointInput {
  readonly url: string;
  readonly events?: readonly string[] | undefined;
  readonly description?: string | null | undefined;
}

/** A new endpoint and its signing secret, shown this once. */
export async function registerEndpoint(
  merchantId: string,
  input: EndpointInput,
  now = new Date(),
): Promise<{ endpoint: WebhookEndpointRecord; secret: string }> {
  const url = await checkEndpointUrl(input.url);
  const events = checkEvents(input.events);
  const description = checkDescription(input.description);
  const id = newWebhookEndpointId(now);
  const secret = generateSigningSecret();
  const endpoint: WebhookEndpointRecord = {
    id,
    merchant_id: merchantId,
    url,
    events,
    description,
    enabled: true,
    secret_sealed: await sealSecret(secret, secretContext({ merchant_id: merchantId, id })),
    previous_secret_sealed: null,
    previous_secret_expires_at: null,
    disabled_reason: null,
    disabled_at: null,
    failing_since: null,
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
  };
  await createWebhookEndpoint(endpoint);
  return { endpoint, secret };
}

export interface EndpointChange {
  readonly url?: string | undefined;
  readonly events?: readonly string[] | undefined;
  readonly description?: string | null | undefined;
  readonly enabled?: boolean | undefined;
  readonly rotate_secret?: boolean | undefined;
}

/** The endpoint changed; with `rotate_secret`, a new secret (shown this once) while the old one signs 24 h more. */
export async function changeEndpoint(
  merchantId: string,
  endpointId: string,
  change: EndpointChange,
  now = new Date(),
): Promise<{ endpoint: WebhookEndpointRecord; secret?: string }> {
  const before = await getWebhookEndpoint(merchantId, endpointId);
  const url = change.url === undefined ? before.url : await checkEndpointUrl(change.url);
  const events = change.events === undefined ? before.events : checkEvents(change.events);
  const description = change.description === undefined ? before.description : checkDescription(change.description);
  let rotation: Pick<WebhookEndpointRecord, 'secret_sealed' | 'previous_secret_sealed' | 'previous_secret_expires_at'> = before;
  let secret: string | undefined;
  if (change.rotate_secret === true) {
    const context = secretContext(before);
    const previous = rotatedOut(await openSecret(before.secret_sealed, context), now);
    secret = generateSigningSecret();
    rotation = {
      secret_sealed: await sealSecret(secret, context),
      previous_secret_sealed: await sealSecret(previous.secret, context),
      previous_secret_expires_at: previous.expires_at,
    };
  }
  const enabled = change.enabled ?? before.enabled;
  const endpoint: WebhookEndpointRecord = {
    ...before,
    url,
    events,
    description,
    enabled,
    // Enabling again starts afresh; disabling through the API says so (an automatic disable keeps its reason).
    ...(enabled && !before.enabled ? { disabled_reason: null, disabled_at: null, failing_since: null } : {}),
    ...(!enabled && before.enabled ? { disabled_reason: 'disabled through the API', disabled_at: now.toISOString() } : {}),
    secret_sealed: rotation.secret_sealed,
    previous_secret_sealed: rotation.previous_secret_sealed,
    previous_secret_expires_at: rotation.previous_secret_expires_at,
    updated_at: now.toISOString(),
  };
  await saveWebhookEndpoint(endpoint);
  return secret === undefined ? { endpoint } : { endpoint, secret };
}

export interface SendOptions {
  readonly resolver?: AddressResolver;
  readonly timeoutMs?: number;
}

/**
 * Signs and sends one payload to an endpoint (both secrets during a rotation), through the
 * SSRF-safe client (the host resolved again now). Never throws for the receiver's behaviour.
 */
export async function sendToEndpoint(
  endpoint: WebhookEndpointRecord,
  payload: { readonly id: string; readonly type: string },
  now: Date,
  options: SendOptions = {},
): Promise<DeliveryResult> {
  const context = secretContext(endpoint);
  const secret = await openSecret(endpoint.secret_sealed, context);
  const previous =
    endpoint.previous_secret_sealed !== null && endpoint.previous_secret_expires_at !== null && Date.parse(endpoint.previous_secret_expires_at) > now.getTime()
      ? { secret: await openSecret(endpoint.previous_secret_sealed, context), expires_at: endpoint.previous_secret_expires_at }
      : undefined;
  const body = JSON.stringify(payload);
  return deliverSafely({
    url: endpoint.url,
    body,
    headers: signedHeaders({ id: payload.id, body, secret, previous, now }),
    resolver: options.resolver ?? webhookResolver(),
    policy: webhookAddressPolicy(),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
  });
}

/** What the delivery log says of a result: its status code and a readable error (never the body sent). */
export function loggedOutcome(result: DeliveryResult): Pick<WebhookDeliveryRecord, 'status_code' | 'duration_ms' | 'error'> {
  const error =
    result.error === 'http_status' ? `the receiver answered HTTP ${result.status}` : result.error === null ? null : (result.message ?? result.error);
  return { status_code: result.status, duration_ms: result.duration_ms, error };
}

/** Signs and sends one payload to an endpoint (sendToEndpoint) and logs the attempt under a fresh id: the test route's unit of work. */
export async function deliverToEndpoint(
  endpoint: WebhookEndpointRecord,
  payload: { readonly id: string; readonly type: string },
  attempt: number,
  now = new Date(),
  options: SendOptions = {},
): Promise<{ result: DeliveryResult; delivery: WebhookDeliveryRecord }> {
  const result = await sendToEndpoint(endpoint, payload, now, options);
  const delivery = await recordWebhookDelivery(
    {
      merchant_id: endpoint.merchant_id,
      endpoint_id: endpoint.id,
      event_id: payload.id,
      event_type: payload.type,
      attempt,
      status: result.success ? 'delivered' : 'failed',
      ...loggedOutcome(result),
      next_attempt_at: null,
    },
    new Date(),
  );
  return { result, delivery };
}

/** POST /webhooks/endpoints/{id}/test: a real signed `webhook.test` event, sent once (no retries), logged. */
export async function sendTestEvent(
  merchantId: string,
  endpointId: string,
  now = new Date(),
): Promise<{ endpoint: WebhookEndpointRecord; result: DeliveryResult; delivery: WebhookDeliveryRecord }> {
  const endpoint = await getWebhookEndpoint(merchantId, endpointId);
  const payload = testPayload(`evt_${timeOrderedId(now)}`, merchantId, endpoint.id, now);
  const { result, delivery } = await deliverToEndpoint(endpoint, payload, 1, now);
  return { endpoint, result, delivery };
}
