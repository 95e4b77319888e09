import * as z from '#shared/zod';
import { isPsp, type Psp } from '#core/providers';
import type { DocumentedBody, RouteDef } from '#api/route-types';

export const ProviderWebhookParams = z.object({
  merchant_id: z.string().check(z.minLength(1)).clone().register(z.globalRegistry, { description: 'The merchant the provider was told to post to.' }),
});

export const ProviderWebhookReceivedResponse = z.object({
  data: z.object({
    received: z.literal(true),
    id: z
      .string()
      .clone()
      .register(z.globalRegistry, { description: 'Our id of the stored delivery (`whk_…`); it is processed from the inbound-webhooks queue.' }),
  }),
  meta: z.object({ timestamp: z.string(), request_id: z.string(), merchant_id: z.optional(z.string()) }),
});

const JSON_TYPE = 'application/json';
const FORM_TYPE = 'application/x-www-form-urlencoded';

/** A provider's JSON event: the fields named are the ones the service reads first; every other field is accepted and kept. */
const event = (shape: z.core.$ZodShape, description: string): z.ZodMiniType =>
  z.looseObject(shape).clone().register(z.globalRegistry, { description: description });

/** Square's payment and invoice subscriptions post the same event shape. */
const squareEvent = (types: string): z.ZodMiniType =>
  event(
    {
      merchant_id: z.optional(z.string()),
      type: z.string().clone().register(z.globalRegistry, { description: types }),
      event_id: z.string(),
      created_at: z.optional(z.string()),
      data: z.looseObject({ type: z.string(), id: z.string(), object: z.looseObject({}) }),
    },
    'A Square event.',
  );

/**
 * What each provider posts (DESIGN §2b; functions/webhooks/<psp>.ts verifies and reads it): its
 * own format and signature, documented per operation. The body is stored as received and read by
 * the inbound-webhooks consumer, so fields beyond those named here are accepted.
 */
const PROVIDER_BODIES: Readonly<Record<Psp | 'square_invoice', { readonly signature: string; readonly content: Readonly<Record<string, z.ZodMiniType>> }>> = {
  stripe: {
    signature: '`Stripe-Signature: t=<unix seconds>,v1=<hex>`: HMAC-SHA256 of `"<t>.<body>"` with the endpoint secret (`whsec_…`), within 300 s.',
    content: {
      [JSON_TYPE]: event(
        {
          id: z.string().clone().register(z.globalRegistry, { description: '`evt_…`' }),
          type: z
            .string()
            .clone()
            .register(z.globalRegistry, { description: '`invoice.payment_failed`, `payment_intent.payment_failed`, `charge.failed`, `invoice.paid`, …' }),
          api_version: z.nullish(z.string()),
          created: z.optional(z.number().check(z.int())),
          data: z.looseObject({ object: z.looseObject({}) }),
        },
        'A Stripe event.',
      ),
    },
  },
  braintree: {
    signature:
      'Form fields `bt_signature` (`<public key>|<hex HMAC-SHA1>` pairs) and `bt_payload` (base64 XML notification), the HMAC keyed by the SHA-1 of the private key.',
    content: {
      [FORM_TYPE]: z.object({
        bt_signature: z.string(),
        bt_payload: z.string().clone().register(z.globalRegistry, { description: 'Base64 of the XML `<notification>`.' }),
      }),
    },
  },
  adyen: {
    signature:
      "Each item's `additionalData.hmacSignature`: base64 HMAC-SHA256 (hex-decoded key) of its `:`-joined fields; plus `Authorization: Basic` when the webhook has Basic credentials.",
    content: {
      [JSON_TYPE]: event(
        {
          live: z.optional(z.string()),
          notificationItems: z.array(
            z.object({
              NotificationRequestItem: z.looseObject({
                pspReference: z.string(),
                eventCode: z.string().clone().register(z.globalRegistry, { description: '`AUTHORISATION`, `AUTORESCUE`, …' }),
                success: z.string().clone().register(z.globalRegistry, { description: '`"true"` or `"false"`.' }),
                amount: z.optional(z.looseObject({ value: z.number().check(z.int()), currency: z.string() })),
                merchantAccountCode: z.optional(z.string()),
                additionalData: z.looseObject({ hmacSignature: z.string() }),
              }),
            }),
          ),
        },
        'An Adyen standard webhook: a batch of NotificationRequestItems.',
      ),
    },
  },
  paypal: {
    signature:
      '`PAYPAL-TRANSMISSION-SIG`: base64 RSA-SHA256 over `"<PAYPAL-TRANSMISSION-ID>|<PAYPAL-TRANSMISSION-TIME>|<webhook id>|<CRC-32 of the body>"`, checked with the certificate at `PAYPAL-CERT-URL` (a PayPal host), within 300 s.',
    content: {
      [JSON_TYPE]: event(
        {
          id: z.string().clone().register(z.globalRegistry, { description: '`WH-…`' }),
          event_type: z.string().clone().register(z.globalRegistry, { description: '`BILLING.SUBSCRIPTION.PAYMENT.FAILED`, `PAYMENT.SALE.COMPLETED`, …' }),
          resource_type: z.optional(z.string()),
          create_time: z.optional(z.string()),
          resource: z.looseObject({}),
        },
        'A PayPal webhook event.',
      ),
    },
  },
  checkout: {
    signature: "`Cko-Signature`: hex HMAC-SHA256 of the body with the webhook's signature key.",
    content: {
      [JSON_TYPE]: event(
        {
          id: z.string().clone().register(z.globalRegistry, { description: '`evt_…`' }),
          type: z.string().clone().register(z.globalRegistry, { description: '`payment_declined`, `payment_captured`, …' }),
          created_on: z.optional(z.string()),
          data: z.looseObject({}),
        },
        'A Checkout.com event.',
      ),
    },
  },
  square: {
    signature: "`x-square-hmacsha256-signature`: base64 HMAC-SHA256 of the notification URL followed by the body, with the subscription's signature key.",
    content: { [JSON_TYPE]: squareEvent('`payment.created`, `payment.updated`, `refund.updated`, `card.updated`, `subscription.updated`, …') },
  },
  square_invoice: {
    signature: '`x-square-hmacsha256-signature`, as for `POST /square/{merchant_id}`, over this URL (the invoice subscription has its own).',
    content: { [JSON_TYPE]: squareEvent('`invoice.scheduled_charge_failed`, `invoice.payment_made`, …') },
  },
  authorize_net: {
    signature: '`X-ANET-Signature: sha512=<HEX>`: HMAC-SHA512 of the body with the Signature Key.',
    content: {
      [JSON_TYPE]: event(
        {
          notificationId: z.string(),
          eventType: z
            .string()
            .clone()
            .register(z.globalRegistry, { description: '`net.authorize.payment.authcapture.created`, `net.authorize.customer.subscription.failed`, …' }),
          eventDate: z.optional(z.string()),
          webhookId: z.optional(z.string()),
          payload: z.looseObject({ id: z.string() }),
        },
        'An Authorize.Net notification (thin: the transaction, subscription or profile is fetched).',
      ),
    },
  },
  chargebee: {
    signature: '`Authorization: Basic <base64 username:password>`: the credentials configured on the Chargebee webhook (Chargebee signs nothing).',
    content: {
      [JSON_TYPE]: event(
        {
          id: z.string().clone().register(z.globalRegistry, { description: '`ev_…`' }),
          event_type: z.string().clone().register(z.globalRegistry, { description: '`payment_failed`, `payment_succeeded`, `subscription_cancelled`, …' }),
          occurred_at: z.optional(z.number().check(z.int())),
          content: z.looseObject({}),
        },
        'A Chargebee event.',
      ),
    },
  },
  recurly: {
    signature: '`recurly-signature: <unix ms>,<hex>[,<hex>]`: HMAC-SHA256 of `"<timestamp>.<body>"`, within 300 s (unsigned XML notifications are refused).',
    content: {
      [JSON_TYPE]: event(
        {
          id: z.optional(z.string()),
          object_type: z.optional(z.string()),
          event_type: z.optional(z.string()),
          event_time: z.optional(z.string()),
          uuid: z.optional(z.string()),
          account_code: z.optional(z.string()),
        },
        'A Recurly JSON notification: a thin one (`id`, `object_type`, `event_type`, `event_time`, `uuid`; the object is fetched), or a full one keyed by its kind (`{ "failed_payment_notification": { "account", "transaction" } }`, …).',
      ),
    },
  },
  paddle: {
    signature: '`Paddle-Signature: ts=<unix seconds>;h1=<hex>`: HMAC-SHA256 of `"<ts>:<body>"`, within 300 s.',
    content: {
      [JSON_TYPE]: event(
        {
          event_id: z.string(),
          event_type: z
            .string()
            .clone()
            .register(z.globalRegistry, { description: '`transaction.payment_failed`, `transaction.completed`, `subscription.canceled`, …' }),
          occurred_at: z.optional(z.string()),
          notification_id: z.optional(z.string()),
          data: z.looseObject({}),
        },
        'A Paddle Billing event.',
      ),
    },
  },
  razorpay: {
    signature: '`X-Razorpay-Signature`: hex HMAC-SHA256 of the body with the webhook secret.',
    content: {
      [JSON_TYPE]: event(
        {
          entity: z.optional(z.string()),
          event: z.string().clone().register(z.globalRegistry, { description: '`payment.failed`, `payment.captured`, `subscription.cancelled`, …' }),
          contains: z.optional(z.array(z.string())),
          created_at: z.optional(z.number().check(z.int())),
          payload: z.looseObject({}),
        },
        'A Razorpay event.',
      ),
    },
  },
  mollie: {
    signature:
      "Next-gen webhooks (JSON): `X-Mollie-Signature: sha256=<hex>`, HMAC-SHA256 of the body with the webhook's signing secret. Classic webhooks (form `id=tr_…`) are unsigned: they state nothing, and the payment is fetched from Mollie.",
    content: {
      [JSON_TYPE]: event(
        {
          resource: z.optional(z.literal('event')),
          id: z.string().clone().register(z.globalRegistry, { description: '`event_…`' }),
          type: z.string().clone().register(z.globalRegistry, { description: '`payment.failed`, `payment.paid`, `chargeback.received`, …' }),
          entityId: z.optional(z.string()),
          createdAt: z.optional(z.string()),
          _embedded: z.optional(z.looseObject({})),
        },
        'A Mollie next-gen event.',
      ),
      [FORM_TYPE]: z.object({
        id: z.string().check(z.regex(/^tr_/)).clone().register(z.globalRegistry, { description: 'The payment id; nothing else is sent.' }),
      }),
    },
  },
  gocardless: {
    signature: '`Webhook-Signature`: hex HMAC-SHA256 of the body with the endpoint secret.',
    content: {
      [JSON_TYPE]: event(
        {
          events: z.array(
            z.looseObject({
              id: z.string().clone().register(z.globalRegistry, { description: '`EV…`' }),
              resource_type: z.string(),
              action: z.string(),
              links: z.optional(z.looseObject({})),
              details: z.optional(z.looseObject({})),
              created_at: z.optional(z.string()),
            }),
          ),
          meta: z.optional(z.looseObject({ webhook_id: z.optional(z.string()) })),
        },
        'A batch of GoCardless events (thin: each resource is fetched).',
      ),
    },
  },
};

/** The body of a provider-webhook row, from the provider its path names. */
function providerWebhookBody(route: RouteDef): DocumentedBody {
  const [, first, , last] = route.path.split('/');
  if (first === undefined || !isPsp(first)) throw new Error(`${route.path} names no provider`);
  const { signature, content } = PROVIDER_BODIES[first === 'square' && last === 'invoice' ? 'square_invoice' : first];
  return {
    description: `The provider's delivery, exactly as it sends it (the signature covers the raw bytes, so it is verified before anything is parsed; up to 256 KB). Signature: ${signature}`,
    content,
  };
}

/**
 * One schemas object for the 14 provider-webhook rows (13 providers and Square's invoice path).
 * No body schema: the body is read raw, since the signature covers the bytes exactly as sent; its
 * per-provider format is documented only. A signature that fails is 401 `invalid_signature`.
 */
export const receiveProviderWebhookSchemas = {
  params: ProviderWebhookParams,
  documentedBody: providerWebhookBody,
  responses: { 200: ProviderWebhookReceivedResponse },
} as const;
