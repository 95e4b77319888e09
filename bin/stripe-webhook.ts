/**
 * `npm run --silent stripe-webhook -- --secret whsec_...`: sends the running local stack a Stripe
 * `payment_intent.payment_failed` event, signed with Stripe's own SDK
 * (`stripe.webhooks.generateTestHeaderString`) and the merchant's endpoint secret (set it first
 * with `npm run --silent admin -- providers set-secret --psp stripe --secret whsec_...`), as
 * Stripe would deliver it to `POST /stripe/{merchant_id}`. Prints what it sent and the answer as
 * JSON; exit 0 when the intake accepted it (2xx), 1 otherwise, 2 for bad arguments.
 *
 *   npm run --silent stripe-webhook -- --secret whsec_... [--merchant <id>] [--email bo@example.com]
 *     [--amount 4999] [--currency usd] [--decline-code insufficient_funds]
 *
 * The stack's URL and (by default) its demo merchant come from `.local/stack.json`.
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import Stripe from 'stripe';
import { readStackFile, stackFilePath } from '#lib/local/stack-file';

class UsageError extends Error {}

const randomId = (prefix: string): string => `${prefix}_${randomBytes(12).toString('hex')}`;

function options() {
  const read = () =>
    parseArgs({
      args: process.argv.slice(2),
      strict: true,
      allowPositionals: false,
      options: {
        secret: { type: 'string' },
        merchant: { type: 'string' },
        email: { type: 'string', default: 'bo@example.com' },
        amount: { type: 'string', default: '4999' },
        currency: { type: 'string', default: 'usd' },
        'decline-code': { type: 'string', default: 'insufficient_funds' },
      },
    }).values;
  let parsed: ReturnType<typeof read>;
  try {
    parsed = read();
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  if (parsed.secret === undefined || parsed.secret === '')
    throw new UsageError("missing --secret (the merchant's Stripe endpoint secret, set with providers set-secret)");
  if (!/^\d+$/.test(parsed.amount)) throw new UsageError('--amount must be a whole number of minor units (4999 for 49.99)');
  const stack = readStackFile();
  const merchantId = parsed.merchant ?? stack.merchant_id;
  if (stack.api_url === undefined || merchantId === undefined) throw new UsageError(`no local stack found in ${stackFilePath()}: start it with \`npm start\``);
  return { ...parsed, secret: parsed.secret, merchantId, origin: stack.api_url.replace(/\/api\/v1$/, '') };
}

async function main(): Promise<number> {
  const input = options();
  const eventId = randomId('evt');
  const paymentIntent = randomId('pi');
  const payload = JSON.stringify({
    id: eventId,
    object: 'event',
    api_version: '2024-06-20',
    created: Math.floor(Date.now() / 1000),
    type: 'payment_intent.payment_failed',
    data: {
      object: {
        id: paymentIntent,
        object: 'payment_intent',
        amount: Number(input.amount),
        currency: input.currency,
        customer: randomId('cus'),
        receipt_email: input.email,
        status: 'requires_payment_method',
        last_payment_error: {
          charge: randomId('ch'),
          code: 'card_declined',
          decline_code: input['decline-code'],
          type: 'card_error',
          payment_method: {
            id: randomId('pm'),
            object: 'payment_method',
            billing_details: { email: input.email, name: null },
            card: { brand: 'visa', last4: '4242' },
            type: 'card',
          },
        },
      },
    },
  });
  // Signing needs no API call: the key is never used.
  const signature = new Stripe('sk_test_offline_signing_only').webhooks.generateTestHeaderString({ payload, secret: input.secret });
  const url = `${input.origin}/stripe/${encodeURIComponent(input.merchantId)}`;
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': signature }, body: payload });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: shown as text.
  }
  process.stdout.write(`${JSON.stringify({ url, event_id: eventId, payment_intent: paymentIntent, status: response.status, response: body }, null, 2)}\n`);
  return response.ok ? 0 : 1;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`stripe-webhook: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = error instanceof UsageError ? 2 : 1;
  },
);
