/**
 * Runtime configuration, read once and checked at start (fails fast with the variable's name).
 * Every variable is documented in README.md, "Configuration".
 *
 * Checked by a few plain rules rather than a zod schema: every function loads this module, and a
 * zod object of ~60 fields builds ~170 schema objects at each cold start (about 4 ms).
 */

/** What a variable must be: required or not (or a fallback when unset), its minimum length, a URL, or one of some values. */
interface VariableRule {
  readonly required?: true;
  readonly fallback?: string;
  readonly minLength?: number;
  readonly url?: true;
  readonly oneOf?: readonly string[];
  /** Digits only: a whole number, 0 or more. */
  readonly wholeNumber?: true;
}

const RULES = {
  /** The single table. */
  TABLE_NAME: { required: true, minLength: 3 },
  /** Set locally (DynamoDB Local); unset on AWS. */
  DYNAMODB_ENDPOINT: { url: true },
  AWS_REGION: { fallback: 'us-east-1', minLength: 1 },
  /** dev | staging | prod; dev relaxes nothing about security, only retention of data. */
  STAGE: { fallback: 'dev', minLength: 1 },
  /** Queue transport: `sqs` on AWS, `local` for the in-process queues of the local stack. */
  QUEUE_DRIVER: { fallback: 'sqs', oneOf: ['sqs', 'local'] },
  INBOUND_WEBHOOK_QUEUE_URL: {},
  OUTBOUND_DELIVERY_QUEUE_URL: {},
  NOTIFICATION_QUEUE_URL: {},
  /**
   * Public origin of the webhook API (`https://hooks.example.com`, no trailing slash), used to
   * rebuild the URL a provider posted to (Square signs it). Unset: scheme and host of the request.
   */
  WEBHOOK_PUBLIC_BASE_URL: { url: true },
  /** Key that signs list cursors; unset locally, where each process makes its own. */
  CURSOR_SIGNING_SECRET: { minLength: 32 },
  /** On AWS: the Secrets Manager secret holding that key (set by CDK). */
  CURSOR_SIGNING_SECRET_ARN: { minLength: 1 },
  /**
   * Delivery callbacks from the service's own senders (service-wide, not per merchant); a callback
   * whose secret is unset is refused (401 invalid_signature) and the missing secret logged.
   * MESSAGING_AUTH_TOKEN: the SMS/WhatsApp provider's auth token (Twilio-style X-Twilio-Signature).
   */
  MESSAGING_AUTH_TOKEN: { minLength: 1 },
  /** The legacy email provider's webhook signing key (Mailgun-style signature in the body). */
  LEGACY_EMAIL_SIGNING_KEY: { minLength: 1 },
  /** The mailer's endpoint secret, `whsec_<base64>` (Standard Webhooks / Svix). */
  MAILER_WEBHOOK_SECRET: { minLength: 1 },
  /** Reported by GET /api/v1/status. */
  SERVICE_VERSION: { fallback: '0.1.0', minLength: 1 },
  /**
   * Providers' API origins for fetching thin webhook events (functions/adapters/provider-api).
   * Checked here at start; the adapters read them again at call time (see provider-api/http.ts).
   */
  MOLLIE_API_BASE_URL: { fallback: 'https://api.mollie.com', url: true },
  GOCARDLESS_API_BASE_URL: { fallback: 'https://api.gocardless.com', url: true },
  /** Authorize.Net's JSON API origin; the sandbox is https://apitest.authorize.net. */
  AUTHORIZE_NET_API_BASE_URL: { fallback: 'https://api.authorize.net', url: true },
  /** Recurly's v3 API origin (https://v3.eu.recurly.com for EU sites). */
  RECURLY_API_BASE_URL: { fallback: 'https://v3.recurly.com', url: true },
  /** Paddle Billing's API origin (https://sandbox-api.paddle.com for the sandbox); customers are looked up there. */
  PADDLE_API_BASE_URL: { fallback: 'https://api.paddle.com', url: true },
  /**
   * Where failed payments' customers are looked up when the event carries no email (each read
   * again at call time): Stripe's, Checkout.com's (https://api.sandbox.checkout.com, or the
   * account's https://{prefix}.api.checkout.com), Square's (https://connect.squareupsandbox.com),
   * Razorpay's and Braintree's (https://api.sandbox.braintreegateway.com) API origins; Chargebee's
   * names the site of the merchant's API key (`<site>:<api_key>`) as `{site}`.
   */
  STRIPE_API_BASE_URL: { fallback: 'https://api.stripe.com', url: true },
  CHECKOUT_API_BASE_URL: { fallback: 'https://api.checkout.com', url: true },
  SQUARE_API_BASE_URL: { fallback: 'https://connect.squareup.com', url: true },
  RAZORPAY_API_BASE_URL: { fallback: 'https://api.razorpay.com', url: true },
  CHARGEBEE_API_BASE_URL: { fallback: 'https://{site}.chargebee.com', url: true },
  BRAINTREE_API_BASE_URL: { fallback: 'https://api.braintreegateway.com', url: true },
  /**
   * CRM integrations (functions/adapters/crm, docs/integrations.md). CRM A (HubSpot-shaped): API
   * and token origin, OAuth client and the redirect URI registered with it. CRM B
   * (Salesforce-shaped): login (token) origin, OAuth client, redirect URI; its API origin is the
   * connected account's `instance_url`. A CRM whose client is unset answers its calls as unavailable.
   * Each client secret is the value itself (local), or on AWS the Secrets Manager secret `*_ARN`
   * names (set by CDK; read once per container). CRM A's consent page is on its own origin.
   */
  CRM_A_API_BASE_URL: { fallback: 'https://api.hubapi.com', url: true },
  CRM_A_AUTHORIZE_BASE_URL: { fallback: 'https://app.hubspot.com', url: true },
  CRM_A_CLIENT_ID: { minLength: 1 },
  CRM_A_CLIENT_SECRET: { minLength: 1 },
  CRM_A_CLIENT_SECRET_ARN: { minLength: 1 },
  CRM_A_REDIRECT_URI: { url: true },
  CRM_B_LOGIN_BASE_URL: { fallback: 'https://login.salesforce.com', url: true },
  CRM_B_CLIENT_ID: { minLength: 1 },
  CRM_B_CLIENT_SECRET: { minLength: 1 },
  CRM_B_CLIENT_SECRET_ARN: { minLength: 1 },
  CRM_B_REDIRECT_URI: { url: true },
  /** Key of the CRM OAuth `state` (HMAC-SHA256), or the Secrets Manager secret holding it; unset: derived from the list-cursor key, else one of this process. */
  CRM_STATE_SIGNING_SECRET: { minLength: 32 },
  CRM_STATE_SIGNING_SECRET_ARN: { minLength: 1 },
  /**
   * The payment gateway of the retry engine for a merchant and provider with none configured
   * (`gateways set`): `sandbox` locally and in tests; unset on AWS, where an unconfigured provider
   * gets no attempts (each is a gateway error, retried later and never counted).
   */
  DEFAULT_PAYMENT_GATEWAY: { oneOf: ['sandbox', 'stripe'] },
  /**
   * The shared secret of the internal (`cron_secret`) routes, sent as `Authorization: Bearer <secret>`
   * (functions/api/pipeline/cron-secret.ts). Locally the value itself; on AWS the Secrets Manager
   * secret holding it (set by CDK, read once per cold start). Neither set: those routes refuse every call.
   */
  CRON_SECRET: { minLength: 16 },
  CRON_SECRET_ARN: { minLength: 1 },
  /** The AI port's adapter (functions/adapters/ai): `local`, the deterministic local model, or `bedrock` (set by CDK on AWS). */
  AI_PROVIDER: { fallback: 'local', oneOf: ['local', 'bedrock'] },
  /** The Bedrock model the `bedrock` adapter converses with. */
  BEDROCK_MODEL_ID: { fallback: 'anthropic.claude-3-haiku-20240307-v1:0', minLength: 1 },
  /** Bedrock Runtime endpoint override (tests point it at a loopback fake of the Converse API); unset on AWS. */
  BEDROCK_ENDPOINT: { url: true },
  /**
   * Bound of one AI generation call in milliseconds (POST /ai/generate; GET /ai/ping uses at most
   * 5000): past it the call is aborted and answered 504. 20 s leaves the ai Lambda (28 s) time to answer.
   */
  AI_TIMEOUT_MS: { fallback: '20000', wholeNumber: true },
  /**
   * Email adapter (functions/adapters/email): `outbox` keeps each email as a table item only (tests),
   * `smtp` composes real MIME and delivers it to SMTP_URL (the local stack's mail catcher; the
   * outbox item stays the local record), `ses` sends through SES v2 (set by CDK on AWS). Read
   * again at send time, like the provider API origins.
   */
  EMAIL_DRIVER: { fallback: 'outbox', oneOf: ['outbox', 'smtp', 'ses'] },
  /** Where the `smtp` driver delivers, e.g. `smtp://127.0.0.1:1025` (the local stack sets it to its mail catcher). */
  SMTP_URL: { url: true },
  /** The sender address of every email; the merchant's name is its display name. */
  EMAIL_FROM: { fallback: 'no-reply@recovery.local', minLength: 3 },
  /** The SES configuration set every email is sent with (its event destination feeds delivery status; set by CDK). */
  SES_CONFIGURATION_SET: { minLength: 1 },
  /** SES v2's endpoint, only to point the adapter at a test double; unset on AWS. */
  SES_ENDPOINT: { url: true },
  /** SMS/WhatsApp adapter (functions/adapters/messaging): `local` keeps each message as a table item (`admin messages list`), `twilio` sends. */
  MESSAGING_DRIVER: { fallback: 'local', oneOf: ['local', 'twilio'] },
  /** Twilio's REST origin (a test double's in tests). */
  TWILIO_API_BASE_URL: { fallback: 'https://api.twilio.com', url: true },
  TWILIO_ACCOUNT_SID: { minLength: 1 },
  /** The API credential; MESSAGING_AUTH_TOKEN (which verifies status callbacks) when unset. */
  TWILIO_AUTH_TOKEN: { minLength: 1 },
  /** On AWS: the Secrets Manager secret holding the Twilio auth token (set by CDK; read once per cold start). */
  TWILIO_AUTH_TOKEN_ARN: { minLength: 1 },
  /** The sender of SMS (`+1…`) and of WhatsApp (`+1…`, sent as `whatsapp:+1…`). */
  TWILIO_SMS_FROM: { minLength: 1 },
  TWILIO_WHATSAPP_FROM: { minLength: 1 },
  /**
   * Public origin of the edge API (`https://edge.example.com`): unsubscribe links and
   * `List-Unsubscribe` headers point there. The local stack sets it to its own origin.
   */
  EDGE_PUBLIC_BASE_URL: { url: true },
  /** Where the update-payment link of a message points; the recovery id is appended. Default: `<edge>/update-payment`. */
  UPDATE_PAYMENT_BASE_URL: { url: true },
  /** Key of the unsubscribe tokens (HMAC-SHA256), or the Secrets Manager secret holding it (AWS); unset locally, where each process makes its own. */
  UNSUBSCRIBE_SIGNING_SECRET: { minLength: 32 },
  UNSUBSCRIBE_SIGNING_SECRET_ARN: { minLength: 1 },
  /**
   * Secrets at rest (functions/adapters/secret-box.ts): `kms` on AWS (SECRETS_KMS_KEY_ID, set by
   * CDK), `local` in the local stack and tests (SECRET_BOX_KEY: 32 bytes, base64; the local stack
   * makes one per data folder). Read again at call time.
   */
  SECRET_BOX_DRIVER: { fallback: 'kms', oneOf: ['kms', 'local'] },
  SECRETS_KMS_KEY_ID: { minLength: 1 },
  SECRET_BOX_KEY: { minLength: 44 },
  /**
   * `true` lets outbound webhooks reach loopback receivers (`http://` allowed for loopback hosts
   * only). The local stack sets it; CDK never does, so on AWS every non-public address is refused.
   */
  WEBHOOK_ALLOW_LOOPBACK: { oneOf: ['true', 'false'] },
  /** `host:port` DNS servers (comma-separated) that webhook URLs are resolved with; the system's when unset (AWS). Tests point it at a DNS server on loopback. */
  WEBHOOK_DNS_SERVERS: { minLength: 1 },
  /**
   * The vector store (functions/adapters/vectors): `local`, exact cosine over the table (DynamoDB
   * Local), or `s3vectors`, Amazon S3 Vectors (set by CDK on AWS) with its vector bucket and index.
   * S3_VECTORS_ENDPOINT points the adapter at a test double; unset on AWS.
   */
  VECTOR_STORE: { fallback: 'local', oneOf: ['local', 's3vectors'] },
  S3_VECTORS_BUCKET: { minLength: 3 },
  S3_VECTORS_INDEX: { fallback: 'recoveries', minLength: 3 },
  S3_VECTORS_ENDPOINT: { url: true },
  /**
   * The exports port (functions/adapters/exports, docs/data-exports.md): `filesystem` keeps export
   * files under EXPORTS_DIR (else DATA_DIR/exports, else a directory in the system's temp dir);
   * `s3` keeps them in EXPORTS_BUCKET (set by CDK on AWS). S3_EXPORTS_ENDPOINT points the S3
   * adapter at a test double or an S3-compatible store; unset on AWS.
   */
  EXPORTS_DRIVER: { fallback: 'filesystem', oneOf: ['filesystem', 's3'] },
  EXPORTS_BUCKET: { minLength: 3 },
  EXPORTS_DIR: { minLength: 1 },
  S3_EXPORTS_ENDPOINT: { url: true },
  LOG_LEVEL: { fallback: 'info', oneOf: ['debug', 'info', 'warn', 'error', 'silent'] },
  /**
   * How long the hourly rollup recompute waits before it looks again at a merchant whose rollups
   * drifted, in milliseconds (services/recompute-rollups.ts): drift seen twice is reported. 0
   * reports the first pass (tests, which apply the stream only when they drain it).
   */
  ROLLUP_DRIFT_CONFIRM_MS: { fallback: '5000', wholeNumber: true },
  /**
   * Email sending domains (docs/email-domains.md). SENDING_DOMAIN: the service's own sending
   * domain, a verified SES domain identity; auto-provisioned merchant domains are its subdomains.
   * EMAIL_IDENTITY_DRIVER: `ses` (SES v2 identities; set by CDK) or `local` (deterministic DKIM
   * tokens, statuses from DNS). DMARC_REPORT_ADDRESS: the `rua` of the suggested DMARC record.
   * DNS_SERVERS (`host:port`, comma-separated) is read by the DNS records port at call time.
   */
  SENDING_DOMAIN: { fallback: 'mail.recovery.local', minLength: 3 },
  EMAIL_IDENTITY_DRIVER: { fallback: 'local', oneOf: ['local', 'ses'] },
  DMARC_REPORT_ADDRESS: { minLength: 3 },
  /**
   * Custom hostnames (docs/custom-hostnames.md). SERVICE_DOMAIN: the service's own domain, which
   * no merchant may claim (nor any name under it). CUSTOM_HOST: the name merchants point their
   * CNAME at; `custom.<SERVICE_DOMAIN>` when unset.
   */
  SERVICE_DOMAIN: { fallback: 'recovery.local', minLength: 3 },
  CUSTOM_HOST: { minLength: 3 },
  /**
   * The certificate port: `local`, a deterministic local CA that issues at once once DNS
   * validates (local stack and tests), or `acm` (AWS Certificate Manager in us-east-1, set by CDK).
   */
  CERTIFICATE_DRIVER: { fallback: 'local', oneOf: ['local', 'acm'] },
  /**
   * The CDN port: `local`, an in-process record of associations and purges, or `cloudfront`
   * (CloudFront SaaS Manager: one distribution tenant per hostname on CLOUDFRONT_DISTRIBUTION_ID,
   * the multi-tenant distribution; set by CDK).
   */
  CDN_DRIVER: { fallback: 'local', oneOf: ['local', 'cloudfront'] },
  CLOUDFRONT_DISTRIBUTION_ID: { minLength: 1 },
} as const satisfies Record<string, VariableRule>;

type Rules = typeof RULES;
type ValueOf<R> = R extends { readonly oneOf: readonly (infer V)[] } ? V : string;
type Always<R> = R extends { readonly required: true } ? true : R extends { readonly fallback: string } ? true : false;

/** The configuration: each variable as its rule makes it (a value always, or possibly undefined). */
export type Env = { -readonly [K in keyof Rules]: Always<Rules[K]> extends true ? ValueOf<Rules[K]> : ValueOf<Rules[K]> | undefined };

/** What is wrong with one variable's value (undefined when it is right). */
function problemOf(value: string | undefined, rule: VariableRule): string | undefined {
  if (value === undefined) return rule.required ? 'required' : undefined;
  if (rule.minLength !== undefined && value.length < rule.minLength) return `must be at least ${rule.minLength} characters`;
  if (rule.url && !URL.canParse(value)) return 'must be a URL';
  if (rule.oneOf !== undefined && !rule.oneOf.includes(value)) return `must be one of ${rule.oneOf.join(', ')}`;
  if (rule.wholeNumber && !/^\d+$/.test(value)) return 'must be a whole number';
  return undefined;
}

function readEnv(): Env {
  const values: Record<string, string | undefined> = {};
  const problems: string[] = [];
  for (const [name, rule] of Object.entries(RULES) as [string, VariableRule][]) {
    const raw = process.env[name];
    const problem = problemOf(raw, rule);
    if (problem !== undefined) problems.push(`${name}: ${problem}`);
    values[name] = raw ?? rule.fallback;
  }
  if (problems.length > 0) throw new Error(`Invalid environment: ${problems.join('; ')}`);
  return values as Env;
}

export const env: Env = readEnv();
