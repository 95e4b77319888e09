import { z } from 'zod';

/**
 * Runtime configuration, read once and checked at start (fails fast with the variable's name).
 * Every variable is documented in README.md, "Configuration".
 */
const EnvSchema = z.object({
  /** The single table. */
  TABLE_NAME: z.string().min(3),
  /** Set locally (DynamoDB Local); unset on AWS. */
  DYNAMODB_ENDPOINT: z.string().url().optional(),
  AWS_REGION: z.string().min(1).default('us-east-1'),
  /** dev | staging | prod; dev relaxes nothing about security, only retention of data. */
  STAGE: z.string().min(1).default('dev'),
  /** Queue transport: `sqs` on AWS, `local` for the in-process queues of the local stack. */
  QUEUE_DRIVER: z.enum(['sqs', 'local']).default('sqs'),
  INBOUND_WEBHOOK_QUEUE_URL: z.string().optional(),
  OUTBOUND_DELIVERY_QUEUE_URL: z.string().optional(),
  NOTIFICATION_QUEUE_URL: z.string().optional(),
  /**
   * Public origin of the webhook API (`https://hooks.example.com`, no trailing slash), used to
   * rebuild the URL a provider posted to (Square signs it). Unset: scheme and host of the request.
   */
  WEBHOOK_PUBLIC_BASE_URL: z.string().url().optional(),
  /** Key that signs list cursors; unset locally, where each process makes its own. */
  CURSOR_SIGNING_SECRET: z.string().min(32).optional(),
  /** On AWS: the Secrets Manager secret holding that key (set by CDK). */
  CURSOR_SIGNING_SECRET_ARN: z.string().min(1).optional(),
  /**
   * Delivery callbacks from the service's own senders (service-wide, not per merchant); a callback
   * whose secret is unset is refused (401 invalid_signature) and the missing secret logged.
   * MESSAGING_AUTH_TOKEN: the SMS/WhatsApp provider's auth token (Twilio-style X-Twilio-Signature).
   */
  MESSAGING_AUTH_TOKEN: z.string().min(1).optional(),
  /** The legacy email provider's webhook signing key (Mailgun-style signature in the body). */
  LEGACY_EMAIL_SIGNING_KEY: z.string().min(1).optional(),
  /** The mailer's endpoint secret, `whsec_<base64>` (Standard Webhooks / Svix). */
  MAILER_WEBHOOK_SECRET: z.string().min(1).optional(),
  /** Reported by GET /api/v1/status. */
  SERVICE_VERSION: z.string().min(1).default('0.1.0'),
  /**
   * Providers' API origins for fetching thin webhook events (functions/adapters/provider-api).
   * Checked here at start; the adapters read them again at call time (see provider-api/http.ts).
   */
  MOLLIE_API_BASE_URL: z.string().url().default('https://api.mollie.com'),
  GOCARDLESS_API_BASE_URL: z.string().url().default('https://api.gocardless.com'),
  /** Authorize.Net's JSON API origin; the sandbox is https://apitest.authorize.net. */
  AUTHORIZE_NET_API_BASE_URL: z.string().url().default('https://api.authorize.net'),
  /** Recurly's v3 API origin (https://v3.eu.recurly.com for EU sites). */
  RECURLY_API_BASE_URL: z.string().url().default('https://v3.recurly.com'),
  /** Paddle Billing's API origin (https://sandbox-api.paddle.com for the sandbox); customers are looked up there. */
  PADDLE_API_BASE_URL: z.string().url().default('https://api.paddle.com'),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
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
