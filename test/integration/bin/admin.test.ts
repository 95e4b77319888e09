import { hashApiKey, isUsable, looksLikeApiKey } from '#core/api-keys';
import type { ApiKeyRecord } from '#core/api-keys';
import type { Merchant } from '#core/merchants';
import { findApiKeyByHash } from '#data/api-key-repository';
import { dynamo } from '#data/client';
import { createMerchant } from '#data/merchant-repository';
import { getProviderApiKey, getProviderSecret } from '#data/provider-secret-repository';
import { gatewayNameFor } from '#data/gateway-config-repository';
import { saveLocalDeadLetter } from '#adapters/dead-letters/local';
import { type OutboxEmail, outboxEmailSender } from '#adapters/email/outbox';
import { registerLocalQueueTransport } from '#adapters/queue-sender';
import { handler as inboundWebhooks } from '#consumers/inbound-webhooks';
import { timeOrderedId } from '#core/ids';
import { listDeadLetteredEvents } from '#data/dead-letter-repository';
import { erasedIdentityKind, refuseIfErased, writeTombstones } from '#data/erasure-tombstones';
import { getPaymentByAnyId, recordFailedPayment } from '#data/payment-repository';
import { setProviderSecret } from '#data/provider-secret-repository';
import type { LocalStack } from '#lib/local/local-stack';
import { LocalQueues } from '#lib/local/queue-hub';
import { call } from '#test/fixtures/http';
import { originOf, startTestStack } from '#test/fixtures/local-stack';
import { failedPaymentInput } from '#test/fixtures/payments';
import { INBOUND_MAX_RECEIVES, stripeFailedFor } from '#test/fixtures/provider-webhooks';
import { admin } from '#test/fixtures/admin-cli';

// The first run bundles the CLI (bin/cli.mjs); the DLQ tests deliver a message five times.
jest.setTimeout(90_000);

const lines = (text: string): string[] => text.split('\n').filter((line) => line !== '');

afterAll(() => dynamo.destroy());

describe('admin CLI', () => {
  let merchant: Merchant;

  beforeAll(async () => {
    merchant = await createMerchant({ name: 'CLI merchant' });
  });

  it('prints the new merchant as JSON when running merchants create', async () => {
    // Act
    const run = await admin(['merchants', 'create', '--name', 'Acme']);
    // Assess
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const created = JSON.parse(run.stdout) as Merchant;
    expect(created).toMatchObject({
      id: expect.stringMatching(/^merch_/),
      name: 'Acme',
      plan_tier: 'engine',
      rate_limits: { read_per_minute: 100, write_per_minute: 100 },
    });
  });

  it('prints a key once that then authenticates by hash when running keys create', async () => {
    // Act
    const run = await admin(['keys', 'create', '--merchant', merchant.id, '--scopes', 'read,write', '--expires-in', '3600']);
    // Assess
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const created = JSON.parse(run.stdout) as ApiKeyRecord & { key: string };
    expect(Object.keys(created).slice(0, 3)).toEqual(['id', 'key', 'merchant_id']);
    expect(created).toMatchObject({ merchant_id: merchant.id, scopes: ['read', 'write'], mode: 'live', revoked_at: null });
    expect(looksLikeApiKey(created.key)).toBe(true);
    expect(run.stdout.split(created.key)).toHaveLength(2);
    expect(Date.parse(created.expires_at ?? '') - Date.parse(created.created_at)).toBe(3_600_000);
    const found = await findApiKeyByHash(hashApiKey(created.key));
    expect(found?.id).toBe(created.id);
    expect(found !== undefined && isUsable(found)).toBe(true);
  });

  it("lists the merchant's keys without any key when running keys list", async () => {
    // Prepare
    const created = JSON.parse((await admin(['keys', 'create', '--merchant', merchant.id, '--scopes', 'admin', '--mode', 'test'])).stdout) as {
      id: string;
      key: string;
    };
    // Act
    const run = await admin(['keys', 'list', '--merchant', merchant.id]);
    // Assess
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const listed = JSON.parse(run.stdout) as ApiKeyRecord[];
    expect(listed.map((record) => record.id)).toContain(created.id);
    expect(listed.find((record) => record.id === created.id)).toMatchObject({ mode: 'test', scopes: ['admin'], prefix: created.key.slice(0, 12) });
    expect(run.stdout).not.toContain(created.key);
  });

  it('revokes a key so that it no longer authenticates when running keys revoke', async () => {
    // Prepare
    const created = JSON.parse((await admin(['keys', 'create', '--merchant', merchant.id, '--scopes', 'read'])).stdout) as { id: string; key: string };
    // Act
    const run = await admin(['keys', 'revoke', created.id]);
    // Assess
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const revoked = JSON.parse(run.stdout) as ApiKeyRecord;
    expect(revoked).toMatchObject({ id: created.id, revoked_at: expect.any(String) });
    expect(run.stdout).not.toContain(created.key);
    const found = await findApiKeyByHash(hashApiKey(created.key));
    expect(found !== undefined && isUsable(found)).toBe(false);
  });

  it('stores the secret and prints only merchant, psp and time when running providers set-secret', async () => {
    // Act
    const run = await admin(['providers', 'set-secret', '--merchant', merchant.id, '--psp', 'stripe', '--secret', 'whsec_cli_test_secret']);
    // Assess
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(run.stdout)).toEqual({ merchant_id: merchant.id, psp: 'stripe', updated_at: expect.any(String) });
    expect(run.stdout).not.toContain('whsec_cli_test_secret');
    expect((await getProviderSecret(merchant.id, 'stripe'))?.secret).toBe('whsec_cli_test_secret');
  });

  it('stores the API key and prints only merchant, psp and time when running providers set-api-key', async () => {
    // Act
    const run = await admin(['providers', 'set-api-key', '--merchant', merchant.id, '--psp', 'mollie', '--key', 'test_cli_mollie_api_key_0001']);
    // Assess
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(run.stdout)).toEqual({ merchant_id: merchant.id, psp: 'mollie', updated_at: expect.any(String) });
    expect(run.stdout).not.toContain('test_cli_mollie_api_key_0001');
    expect((await getProviderApiKey(merchant.id, 'mollie'))?.api_key).toBe('test_cli_mollie_api_key_0001');
    expect(await getProviderSecret(merchant.id, 'mollie')).toBeUndefined();
  });

  it('stores the gateway of a provider when running gateways set', async () => {
    // Act
    const run = await admin(['gateways', 'set', '--merchant', merchant.id, '--psp', 'stripe', '--gateway', 'stripe']);
    // Assess
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(run.stdout)).toEqual({ merchant_id: merchant.id, psp: 'stripe', gateway: 'stripe', updated_at: expect.any(String) });
    expect(await gatewayNameFor(merchant.id, 'stripe')).toBe('stripe');
    expect(await gatewayNameFor(merchant.id, 'adyen')).toBe('sandbox');
  });

  it.each<[string, () => string[], RegExp]>([
    ['no command', () => [], /missing command/],
    ['an unknown command', () => ['merchants', 'delete'], /unknown command "merchants delete"/],
    ['an unknown flag', () => ['merchants', 'create', '--nme', 'Acme'], /--nme/],
    ['a missing --name', () => ['merchants', 'create'], /missing --name/],
    ['a missing --merchant', () => ['keys', 'create', '--scopes', 'read'], /missing --merchant/],
    ['a missing --scopes', () => ['keys', 'create', '--merchant', merchant.id], /missing --scopes/],
    ['an unknown scope', () => ['keys', 'create', '--merchant', merchant.id, '--scopes', 'read,root'], /Unknown scope "root"/],
    ['a zero --expires-in', () => ['keys', 'create', '--merchant', merchant.id, '--scopes', 'read', '--expires-in', '0'], /--expires-in/],
    ['a negative --expires-in', () => ['keys', 'create', '--merchant', merchant.id, '--scopes', 'read', '--expires-in=-60'], /--expires-in/],
    ['a non-numeric --expires-in', () => ['keys', 'create', '--merchant', merchant.id, '--scopes', 'read', '--expires-in', '1h'], /--expires-in/],
    ['an unknown --mode', () => ['keys', 'create', '--merchant', merchant.id, '--scopes', 'read', '--mode', 'prod'], /--mode/],
    ['an unknown merchant for keys create', () => ['keys', 'create', '--merchant', 'merch_nope', '--scopes', 'read'], /merch_nope/],
    ['an unknown merchant for keys list', () => ['keys', 'list', '--merchant', 'merch_nope'], /unknown merchant "merch_nope"/],
    ['a missing key id', () => ['keys', 'revoke'], /<key id>/],
    ['an unknown key id', () => ['keys', 'revoke', 'key_nope'], /key_nope/],
    ['an unknown psp', () => ['providers', 'set-secret', '--merchant', merchant.id, '--psp', 'venmo', '--secret', 'x'], /unknown --psp "venmo"/],
    ['a missing --secret', () => ['providers', 'set-secret', '--merchant', merchant.id, '--psp', 'stripe'], /missing --secret/],
    ['an unknown psp for set-api-key', () => ['providers', 'set-api-key', '--merchant', merchant.id, '--psp', 'venmo', '--key', 'x'], /unknown --psp "venmo"/],
    ['a missing --key', () => ['providers', 'set-api-key', '--merchant', merchant.id, '--psp', 'mollie'], /missing --key/],
    ['an unknown merchant for set-api-key', () => ['providers', 'set-api-key', '--merchant', 'merch_nope', '--psp', 'mollie', '--key', 'test_x'], /merch_nope/],
    ['an unknown gateway', () => ['gateways', 'set', '--merchant', merchant.id, '--psp', 'stripe', '--gateway', 'paypal'], /unknown --gateway "paypal"/],
    [
      'an unknown psp for gateways set',
      () => ['gateways', 'set', '--merchant', merchant.id, '--psp', 'venmo', '--gateway', 'sandbox'],
      /unknown --psp "venmo"/,
    ],
    ['an unknown merchant for gateways set', () => ['gateways', 'set', '--merchant', 'merch_nope', '--psp', 'stripe', '--gateway', 'sandbox'], /merch_nope/],
    ['erasure lift without an identity', () => ['erasure', 'lift', '--merchant', merchant.id], /--email, --provider-customer-id or both/],
    ['erasure lift with a malformed email', () => ['erasure', 'lift', '--merchant', merchant.id, '--email', 'nobody'], /--email must be an email address/],
    ['an unknown merchant for erasure lift', () => ['erasure', 'lift', '--merchant', 'merch_nope', '--email', 'a@b.example'], /merch_nope/],
    [
      'an unknown merchant for set-secret',
      () => ['providers', 'set-secret', '--merchant', 'merch_nope', '--psp', 'stripe', '--secret', 'whsec_x'],
      /merch_nope/,
    ],
  ])('exits 2 with a one-line error and no output when given %s', async (_case, args, message) => {
    // Act
    const run = await admin(args());
    // Assess
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(lines(run.stderr)).toHaveLength(1);
    expect(run.stderr).toMatch(/^admin: /);
    expect(run.stderr).toMatch(message);
  });

  it("lifts an erased customer's tombstones with erasure lift, so that events for them are accepted again, and says what each had refused", async () => {
    // Prepare: erased by email and provider id; one late event was refused.
    await writeTombstones(merchant.id, [{ email: 'Lifted@Example.com', providerCustomerId: 'cus_lifted' }]);
    await refuseIfErased(merchant.id, { email: 'lifted@example.com' }, 'payment_failed');
    // Act
    const run = await admin(['erasure', 'lift', '--merchant', merchant.id, '--email', ' LIFTED@example.com', '--provider-customer-id', 'cus_lifted']);
    const again = await admin(['erasure', 'lift', '--merchant', merchant.id, '--email', 'lifted@example.com']);
    // Assess
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const output = JSON.parse(run.stdout) as { merchant_id: string; tombstones: Array<Record<string, unknown>> };
    expect(output.merchant_id).toBe(merchant.id);
    expect(output.tombstones).toEqual([
      { kind: 'email', lifted: true, erased_at: expect.any(String), refused_count: 1, last_refused_at: expect.any(String) },
      { kind: 'provider_customer_id', lifted: true, erased_at: expect.any(String), refused_count: 0, last_refused_at: null },
    ]);
    expect(run.stdout).not.toContain('lifted@example.com');
    expect(await erasedIdentityKind(merchant.id, { email: 'lifted@example.com', providerCustomerId: 'cus_lifted' })).toBeUndefined();
    expect(JSON.parse(again.stdout).tombstones).toEqual([{ kind: 'email', lifted: false, erased_at: null, refused_count: 0, last_refused_at: null }]);
  });

  it('exits 1 with a one-line error when DynamoDB cannot be reached', async () => {
    // Act
    const run = await admin(['merchants', 'list'], { DYNAMODB_ENDPOINT: 'http://127.0.0.1:9' });
    // Assess
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(lines(run.stderr)).toHaveLength(1);
    expect(run.stderr).toMatch(/ECONNREFUSED/);
  });

  it('writes no secret to stderr when refusing a secret for an unknown merchant', async () => {
    // Act
    const run = await admin(['providers', 'set-secret', '--merchant', 'merch_nope', '--psp', 'stripe', '--secret', 'whsec_never_echoed']);
    // Assess
    expect(run.code).toBe(2);
    expect(run.stderr).not.toContain('whsec_never_echoed');
  });

  it('writes no API key to stderr when refusing a key for an unknown merchant', async () => {
    // Act
    const run = await admin(['providers', 'set-api-key', '--merchant', 'merch_nope', '--psp', 'mollie', '--key', 'live_never_echoed_key']);
    // Assess
    expect(run.code).toBe(2);
    expect(run.stderr).not.toContain('live_never_echoed_key');
  });
});

describe('admin CLI: outbox list', () => {
  let merchant: Merchant;
  let other: Merchant;
  const T0 = Date.parse('2026-11-01T09:00:00.000Z');

  const send = (merchantId: string, to: string, minutes: number, subject: string) =>
    outboxEmailSender.send({
      merchantId,
      customerId: 'cus_outbox',
      to,
      subject,
      text: `Hello ${to}`,
      messageId: `msg_${timeOrderedId(new Date(T0 + minutes * 60_000))}`,
    });

  beforeAll(async () => {
    merchant = await createMerchant({ name: 'Outbox merchant' });
    other = await createMerchant({ name: 'Other outbox merchant' });
    await send(merchant.id, 'ana@example.com', 0, 'first');
    await send(merchant.id, 'bo@example.com', 1, 'second');
    await send(merchant.id, 'Ana@Example.com', 2, 'third');
    await send(other.id, 'cy@example.com', 3, 'other merchant');
  });

  it("prints the merchant's sent emails as JSON, newest first", async () => {
    // Act
    const run = await admin(['outbox', 'list', '--merchant', merchant.id]);
    // Assess
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const emails = JSON.parse(run.stdout) as OutboxEmail[];
    expect(emails.map((email) => email.subject)).toEqual(['third', 'second', 'first']);
    expect(emails[0]).toMatchObject({
      id: expect.stringMatching(/^obx_/),
      merchant_id: merchant.id,
      to: 'Ana@Example.com',
      text: 'Hello Ana@Example.com',
      message_id: expect.stringMatching(/^msg_/),
    });
    expect(emails[0]).not.toHaveProperty('PK');
  });

  it('filters by recipient, without case, and limits', async () => {
    // Act
    const byRecipient = await admin(['outbox', 'list', '--merchant', merchant.id, '--to', 'ANA@example.com']);
    const limited = await admin(['outbox', 'list', '--merchant', merchant.id, '--limit', '1']);
    // Assess
    expect((JSON.parse(byRecipient.stdout) as OutboxEmail[]).map((email) => email.subject)).toEqual(['third', 'first']);
    expect((JSON.parse(limited.stdout) as OutboxEmail[]).map((email) => email.subject)).toEqual(['third']);
  });

  it("lists every merchant's emails, newest first, without --merchant", async () => {
    // Act
    const run = await admin(['outbox', 'list', '--limit', '2']);
    // Assess
    expect(run.code).toBe(0);
    expect((JSON.parse(run.stdout) as OutboxEmail[]).map((email) => [email.merchant_id, email.subject])).toEqual([
      [other.id, 'other merchant'],
      [merchant.id, 'third'],
    ]);
  });

  it.each<[string, string[], RegExp]>([
    ['a zero --limit', ['--limit', '0'], /--limit/],
    ['a --limit over 1000', ['--limit', '1001'], /--limit/],
    ['a --to that is no address', ['--to', 'nobody'], /--to/],
    ['an unknown merchant', ['--merchant', 'merch_nope'], /unknown merchant "merch_nope"/],
  ])('exits 2 with a one-line error when given %s', async (_case, args, message) => {
    // Act
    const run = await admin(['outbox', 'list', ...args]);
    // Assess
    expect(run).toMatchObject({ code: 2, stdout: '' });
    expect(lines(run.stderr)).toHaveLength(1);
    expect(run.stderr).toMatch(message);
  });
});

describe('admin CLI: dead-lettered inbound events on the local stack', () => {
  let stack: LocalStack;
  let merchantId: string;
  const secret = 'whsec_cli_dlq_secret';
  const providerCustomerId = `cus_dlq${Math.random().toString(36).slice(2, 10)}`;
  const providerPaymentId = `pi_dlq${Math.random().toString(36).slice(2, 10)}`;
  const eventId = `evt_dlq${Math.random().toString(36).slice(2, 10)}`;
  /** A Stripe failed payment with no email, for a customer the service does not know yet. */
  const body = JSON.stringify({
    id: eventId,
    object: 'event',
    api_version: '2024-06-20',
    created: 1773144000,
    type: 'payment_intent.payment_failed',
    data: {
      object: {
        id: providerPaymentId,
        object: 'payment_intent',
        amount: 4999,
        currency: 'usd',
        customer: providerCustomerId,
        receipt_email: null,
        status: 'requires_payment_method',
        last_payment_error: {
          code: 'card_declined',
          decline_code: 'insufficient_funds',
          type: 'card_error',
          payment_method: {
            id: 'pm_dlq',
            object: 'payment_method',
            billing_details: { email: null, name: null },
            card: { brand: 'visa', last4: '4242' },
            type: 'card',
          },
        },
      },
    },
  });

  beforeAll(async () => {
    stack = await startTestStack();
    merchantId = (await createMerchant({ name: 'DLQ merchant' })).id;
    await setProviderSecret(merchantId, 'stripe', secret);
  });
  afterAll(async () => {
    registerLocalQueueTransport(undefined);
    await stack.stop();
  });

  it('records the dropped delivery under the merchant, lists it with dlq list, and a redrive once the customer is known ingests it', async () => {
    // Prepare: the stack's queues, on a clock the test moves past each visibility timeout, keeping dead letters in the table as the stack does.
    let clock = Date.now();
    const queues = new LocalQueues({
      consumers: { 'inbound-webhooks': inboundWebhooks },
      now: () => clock,
      onDeadLetter: (queue, letter) => saveLocalDeadLetter(queue, letter),
    });
    const delivery = stripeFailedFor(secret, body);
    const response = await call<{ data: { id: string } }>(`${originOf(stack)}/stripe/${merchantId}`, {
      method: 'POST',
      rawBody: delivery.body,
      headers: delivery.headers,
    });
    expect(response.status).toBe(200);
    for (let receive = 0; receive <= INBOUND_MAX_RECEIVES; receive += 1) {
      await queues.drain();
      clock += 61_000;
    }
    await queues.drain();
    expect(queues.deadLetters('inbound-webhooks')).toHaveLength(1);

    // Act: what the merchant will see, and what the operator sees
    const recorded = await listDeadLetteredEvents(merchantId);
    const events = await admin(['dlq', 'events', '--merchant', merchantId]);
    const listed = await admin(['dlq', 'list', '--queue', 'inbound-webhooks']);

    // Assess
    expect(recorded).toEqual([
      {
        id: expect.stringMatching(/^dle_/),
        merchant_id: merchantId,
        provider: 'stripe',
        event_ids: [eventId],
        webhook_log_id: response.body.data.id,
        reason: 'unknown_webhook_customer',
        dead_lettered_at: expect.any(String),
      },
    ]);
    expect(JSON.stringify(recorded)).not.toMatch(/4999|pm_dlq|visa|card/);
    expect(events).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(events.stdout)).toEqual(recorded);
    expect(listed).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(listed.stdout)).toEqual([
      {
        queue: 'inbound-webhooks',
        message_id: queues.deadLetters('inbound-webhooks')[0]?.messageId,
        body: { kind: 'provider_webhook', merchant_id: merchantId, psp: 'stripe', webhook_log_id: response.body.data.id },
        receive_count: INBOUND_MAX_RECEIVES,
        sent_at: expect.any(String),
        dead_lettered_at: expect.any(String),
      },
    ]);
    expect(await getPaymentByAnyId(merchantId, providerPaymentId)).toBeUndefined();

    // Act: the customer becomes known (an earlier payment with its Stripe customer id), then the redrive
    await recordFailedPayment(
      failedPaymentInput(merchantId, {
        customer: { email: 'dlq-customer@example.com', name: null, provider_customer_id: providerCustomerId },
        providerPaymentId: `ch_earlier_${providerCustomerId}`,
      }),
    );
    const redrive = await admin(['dlq', 'redrive', '--queue', 'inbound-webhooks']);
    const after = await admin(['dlq', 'list']);

    // Assess
    expect(redrive).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(redrive.stdout)).toEqual({ queue: 'inbound-webhooks', adapter: 'local', moved: 1, succeeded: 1, dead_lettered_again: 0 });
    expect(JSON.parse(after.stdout)).toEqual([]);
    expect(await getPaymentByAnyId(merchantId, providerPaymentId)).toMatchObject({ amount: 4999, currency: 'usd', customer_email: 'dlq-customer@example.com' });
    // The merchant's record of the dropped delivery now says it was redriven, and with what outcome.
    const marked = JSON.parse((await admin(['dlq', 'events', '--merchant', merchantId])).stdout) as Array<Record<string, unknown>>;
    expect(marked).toEqual([expect.objectContaining({ provider: 'stripe', redriven_at: expect.any(String), redrive_outcome: 'succeeded' })]);
    // A second redrive finds nothing to move and leaves the first mark as it was.
    const again = await admin(['dlq', 'redrive', '--queue', 'inbound-webhooks']);
    expect(JSON.parse(again.stdout)).toEqual({ queue: 'inbound-webhooks', adapter: 'local', moved: 0, succeeded: 0, dead_lettered_again: 0 });
    expect(JSON.parse((await admin(['dlq', 'events', '--merchant', merchantId])).stdout)).toEqual(marked);
  });

  it('keeps a message that fails every receive again in the DLQ on redrive', async () => {
    // Prepare: a poison message (no processor for its kind) dead-lettered as the stack keeps it.
    await saveLocalDeadLetter('inbound-webhooks', {
      messageId: 'm-poison',
      body: JSON.stringify({ kind: 'no_such_kind' }),
      receiveCount: 5,
      sentTimestamp: Date.now(),
      messageAttributes: {},
    });

    // Act
    const redrive = await admin(['dlq', 'redrive']);
    const after = await admin(['dlq', 'list']);

    // Assess
    expect(JSON.parse(redrive.stdout)).toEqual({ queue: 'inbound-webhooks', adapter: 'local', moved: 1, succeeded: 0, dead_lettered_again: 1 });
    expect(JSON.parse(after.stdout)).toEqual([expect.objectContaining({ body: { kind: 'no_such_kind' }, receive_count: INBOUND_MAX_RECEIVES })]);
    expect((JSON.parse(after.stdout) as { message_id: string }[])[0]?.message_id).not.toBe('m-poison');
  });

  it.each<[string, string[], RegExp]>([
    ['an unknown queue', ['dlq', 'list', '--queue', 'payments'], /unknown --queue "payments"/],
    ['a --dlq-url that is no SQS URL', ['dlq', 'redrive', '--dlq-url', 'inbound'], /--dlq-url/],
    ['a missing --merchant for dlq events', ['dlq', 'events'], /missing --merchant/],
  ])('exits 2 with a one-line error when given %s', async (_case, args, message) => {
    // Act
    const run = await admin(args);
    // Assess
    expect(run).toMatchObject({ code: 2, stdout: '' });
    expect(run.stderr).toMatch(message);
  });
});
