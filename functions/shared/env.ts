import * as z from './zod';

/**
 * Runtime configuration, read once and checked at start (fails fast with the variable's name).
 * Every variable is documented in README.md, "Configuration".
 */
const EnvSchema = z.object({
  /** The single table. */
  TABLE_NAME: z.string().check(z.minLength(3)),
  /** Set locally (DynamoDB Local); unset on AWS. */
  DYNAMODB_ENDPOINT: z.optional(z.string().check(z.url())),
  AWS_REGION: z._default(z.string().check(z.minLength(1)), 'us-east-1'),
  /** dev | staging | prod; dev relaxes nothing about security, only retention of data. */
  STAGE: z._default(z.string().check(z.minLength(1)), 'dev'),
  /** Queue transport: `sqs` on AWS, `local` for the in-process queues of the local stack. */
  QUEUE_DRIVER: z._default(z.enum(['sqs', 'local']), 'sqs'),
  INBOUND_WEBHOOK_QUEUE_URL: z.optional(z.string()),
  OUTBOUND_DELIVERY_QUEUE_URL: z.optional(z.string()),
  NOTIFICATION_QUEUE_URL: z.optional(z.string()),
  /**
   * Public origin of the webhook API (`https://hooks.example.com`, no trailing slash), used to
   * rebuild the URL a provider posted to (Square signs it). Unset: scheme and host of the request.
   */
  WEBHOOK_PUBLIC_BASE_URL: z.optional(z.string().check(z.url())),
  /** Key that signs list cursors; unset locally, where each process makes its own. */
  CURSOR_SIGNING_SECRET: z.optional(z.string().check(z.minLength(32))),
  /** On AWS: the Secrets Manager secret holding that key (set by CDK). */
  CURSOR_SIGNING_SECRET_ARN: z.optional(z.string().check(z.minLength(1))),
  /**
   * Delivery callbacks from the service's own senders (service-wide, not per merchant); a callback
   * whose secret is unset is refused (401 invalid_signature) and the missing secret logged.
   * MESSAGING_AUTH_TOKEN: the SMS/WhatsApp provider's auth token (Twilio-style X-Twilio-Signature).
   */
  MESSAGING_AUTH_TOKEN: z.optional(z.string().check(z.minLength(1))),
  /** The legacy email provider's webhook signing key (Mailgun-style signature in the body). */
  LEGACY_EMAIL_SIGNING_KEY: z.optional(z.string().check(z.minLength(1))),
  /** The mailer's endpoint secret, `whsec_<base64>` (Standard Webhooks / Svix). */
  MAILER_WEBHOOK_SECRET: z.optional(z.string().check(z.minLength(1))),
  /** Reported by GET /api/v1/status. */
  SERVICE_VERSION: z._default(z.string().check(z.minLength(1)), '0.1.0'),
  /**
   * Providers' API origins for fetching thin webhook events (functions/adapters/provider-api).
   * Checked here at start; the adapters read them again at call time (see provider-api/http.ts).
   */
  MOLLIE_API_BASE_URL: z._default(z.string().check(z.url()), 'https://api.mollie.com'),
  GOCARDLESS_API_BASE_URL: z._default(z.string().check(z.url()), 'https://api.gocardless.com'),
  /** Authorize.Net's JSON API origin; the sandbox is https://apitest.authorize.net. */
  AUTHORIZE_NET_API_BASE_URL: z._default(z.string().check(z.url()), 'https://api.authorize.net'),
  /** Recurly's v3 API origin (https://v3.eu.recurly.com for EU sites). */
  RECURLY_API_BASE_URL: z._default(z.string().check(z.url()), 'https://v3.recurly.com'),
  /** Paddle Billing's API origin (https://sandbox-api.paddle.com for the sandbox); customers are looked up there. */
  PADDLE_API_BASE_URL: z._default(z.string().check(z.url()), 'https://api.paddle.com'),
  /**
   * Where failed payments' customers are looked up when the event carries no email (each read
   * again at call time): Stripe's, Checkout.com's (https://api.sandbox.checkout.com, or the
   * account's https://{prefix}.api.checkout.com), Square's (https://connect.squareupsandbox.com),
   * Razorpay's and Braintree's (https://api.sandbox.braintreegateway.com) API origins; Chargebee's
   * names the site of the merchant's API key (`<site>:<api_key>`) as `{site}`.
   */
  STRIPE_API_BASE_URL: z._default(z.string().check(z.url()), 'https://api.stripe.com'),
  CHECKOUT_API_BASE_URL: z._default(z.string().check(z.url()), 'https://api.checkout.com'),
  SQUARE_API_BASE_URL: z._default(z.string().check(z.url()), 'https://connect.squareup.com'),
  RAZORPAY_API_BASE_URL: z._default(z.string().check(z.url()), 'https://api.razorpay.com'),
  CHARGEBEE_API_BASE_URL: z._default(z.string().check(z.url()), 'https://{site}.chargebee.com'),
  BRAINTREE_API_BASE_URL: z._default(z.string().check(z.url()), 'https://api.braintreegateway.com'),
  /**
   * The payment gateway of the retry engine for a merchant and provider with none configured
   * (`gateways set`): `sandbox` locally and in tests; unset on AWS, where an unconfigured provider
   * gets no attempts (each is a gateway error, retried later and never counted).
   */
  DEFAULT_PAYMENT_GATEWAY: z.optional(z.enum(['sandbox', 'stripe'])),
  /**
   * The shared secret of the internal (`cron_secret`) routes, sent as `Authorization: Bearer <secret>`
   * (functions/api/pipeline/cron-secret.ts). Locally the value itself; on AWS the Secrets Manager
   * secret holding it (set by CDK, read once per cold start). Neither set: those routes refuse every call.
   */
  CRON_SECRET: z.optional(z.string().check(z.minLength(16))),
  CRON_SECRET_ARN: z.optional(z.string().check(z.minLength(1))),
  /** The AI port's adapter (functions/adapters/ai): `local`, the deterministic local model, or `bedrock` (set by CDK on AWS). */
  AI_PROVIDER: z._default(z.enum(['local', 'bedrock']), 'local'),
  /** The Bedrock model the `bedrock` adapter converses with. */
  BEDROCK_MODEL_ID: z._default(z.string().check(z.minLength(1)), 'anthropic.claude-3-haiku-20240307-v1:0'),
  /**
   * Email adapter (functions/adapters/email): `outbox` keeps each email as a table item only (tests),
   * `smtp` composes real MIME and delivers it to SMTP_URL (the local stack's mail catcher; the
   * outbox item stays the local record), `ses` sends through SES v2 (set by CDK on AWS). Read
   * again at send time, like the provider API origins.
   */
  EMAIL_DRIVER: z._default(z.enum(['outbox', 'smtp', 'ses']), 'outbox'),
  /** Where the `smtp` driver delivers, e.g. `smtp://127.0.0.1:1025` (the local stack sets it to its mail catcher). */
  SMTP_URL: z.optional(z.string().check(z.url())),
  /** The sender address of every email; the merchant's name is its display name. */
  EMAIL_FROM: z._default(z.string().check(z.minLength(3)), 'no-reply@recovery.local'),
  /** The SES configuration set every email is sent with (its event destination feeds delivery status; set by CDK). */
  SES_CONFIGURATION_SET: z.optional(z.string().check(z.minLength(1))),
  /** SES v2's endpoint, only to point the adapter at a test double; unset on AWS. */
  SES_ENDPOINT: z.optional(z.string().check(z.url())),
  /** SMS/WhatsApp adapter (functions/adapters/messaging): `local` keeps each message as a table item (`admin messages list`), `twilio` sends. */
  MESSAGING_DRIVER: z._default(z.enum(['local', 'twilio']), 'local'),
  /** Twilio's REST origin (a test double's in tests). */
  TWILIO_API_BASE_URL: z._default(z.string().check(z.url()), 'https://api.twilio.com'),
  TWILIO_ACCOUNT_SID: z.optional(z.string().check(z.minLength(1))),
  /** The API credential; MESSAGING_AUTH_TOKEN (which verifies status callbacks) when unset. */
  TWILIO_AUTH_TOKEN: z.optional(z.string().check(z.minLength(1))),
  /** On AWS: the Secrets Manager secret holding the Twilio auth token (set by CDK; read once per cold start). */
  TWILIO_AUTH_TOKEN_ARN: z.optional(z.string().check(z.minLength(1))),
  /** The sender of SMS (`+1…`) and of WhatsApp (`+1…`, sent as `whatsapp:+1…`). */
  TWILIO_SMS_FROM: z.optional(z.string().check(z.minLength(1))),
  TWILIO_WHATSAPP_FROM: z.optional(z.string().check(z.minLength(1))),
  /**
   * Public origin of the edge API (`https://edge.example.com`): unsubscribe links and
   * `List-Unsubscribe` headers point there. The local stack sets it to its own origin.
   */
  EDGE_PUBLIC_BASE_URL: z.optional(z.string().check(z.url())),
  /** Where the update-payment link of a message points; the recovery id is appended. Default: `<edge>/update-payment`. */
  UPDATE_PAYMENT_BASE_URL: z.optional(z.string().check(z.url())),
  /** Key of the unsubscribe tokens (HMAC-SHA256), or the Secrets Manager secret holding it (AWS); unset locally, where each process makes its own. */
  UNSUBSCRIBE_SIGNING_SECRET: z.optional(z.string().check(z.minLength(32))),
  UNSUBSCRIBE_SIGNING_SECRET_ARN: z.optional(z.string().check(z.minLength(1))),
  LOG_LEVEL: z._default(z.enum(['debug', 'info', 'warn', 'error', 'silent']), 'info'),
});

export type Env = z.infer<typeof EnvSchema>;

function readEnv(): Env {
  const parsed = EnvSchema.safeParse(process.env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    throw new Error(`Invalid environment: ${problems}`);
  }
  return parsed.data;
}

export const env: Env = readEnv();
