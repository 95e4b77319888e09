/**
 * The card on file's expiry through POST /api/v1/ingest/payment-event (metadata `card_exp_month`,
 * `card_exp_year`): stored on the customer (GET /customers/{id} `card_expiry`), replaced by a
 * newer event, cleared by a new card without one, refused with 422 and `param` when malformed, and
 * the card-expiry index (read as the daily task reads it) moving with it.
 */
import { cardsExpiringIn } from '#data/card-expiry-repository';
import type { LocalStack } from '#lib/local/local-stack';
import { call } from '#test/fixtures/http';
import { startTestStack } from '#test/fixtures/local-stack';
import { newTenant, type Tenant } from '#test/fixtures/tenants';

interface Customer {
  id: string;
  card_expiry: { month: number; year: number } | null;
}

let seq = 0;
const unique = (prefix: string): string => `${prefix}_${(seq += 1)}_${Math.random().toString(36).slice(2, 8)}`;
const email = (): string => `${unique('card')}@example.com`;

/** The months of the index this tenant's customers are in, by customer id. */
async function indexedMonths(merchantId: string, months: readonly string[]): Promise<Map<string, string[]>> {
  const found = new Map<string, string[]>();
  for (const month of months)
    for await (const card of cardsExpiringIn(month))
      if (card.merchantId === merchantId) found.set(card.customerId, [...(found.get(card.customerId) ?? []), month]);
  return found;
}

describe('card expiry from POST /api/v1/ingest/payment-event', () => {
  let stack: LocalStack;
  let tenant: Tenant;

  const ingest = (body: unknown) => call<{ data: { status: string } }>(`${stack.api_url}/ingest/payment-event`, { method: 'POST', key: tenant.key, body });
  const customerOf = async (address: string): Promise<Customer> => {
    const byEmail = await call<{ data: Customer }>(`${stack.api_url}/customers/by-email/${encodeURIComponent(address)}`, { key: tenant.key });
    const shown = await call<{ data: Customer }>(`${stack.api_url}/customers/${byEmail.body.data.id}`, { key: tenant.key });
    expect(shown.status).toBe(200);
    return shown.body.data;
  };
  const event = (type: string, customer: string, metadata: Record<string, unknown> = {}) => ({
    event_type: type,
    amount_cents: 2500,
    currency: 'usd',
    customer_email: customer,
    decline_code: 'insufficient_funds',
    metadata: { psp: 'stripe', payment_id: unique('ch'), ...metadata },
  });

  beforeAll(async () => {
    stack = await startTestStack();
    tenant = await newTenant(['admin'], { read_per_minute: 100_000, write_per_minute: 100_000 });
  }, 60_000);

  afterAll(async () => {
    await stack.stop();
  });

  it('stores the expiry a failed payment carries, as numbers or digit strings, and indexes the customer under its month', async () => {
    // Prepare
    const [a, b] = [email(), email()];
    // Act
    expect((await ingest(event('payment_failed', a, { card_exp_month: 12, card_exp_year: 2026 }))).status).toBe(200);
    expect((await ingest(event('payment_failed', b, { card_exp_month: '07', card_exp_year: '2027' }))).status).toBe(200);
    // Assess
    const [first, second] = [await customerOf(a), await customerOf(b)];
    expect(first.card_expiry).toEqual({ month: 12, year: 2026 });
    expect(second.card_expiry).toEqual({ month: 7, year: 2027 });
    const months = await indexedMonths(tenant.merchant.id, ['2026-12', '2027-07']);
    expect(months.get(first.id)).toEqual(['2026-12']);
    expect(months.get(second.id)).toEqual(['2027-07']);
  }, 30_000);

  it('keeps the expiry when a later event says nothing of the card, and replaces it with a newer one (the index entry moves)', async () => {
    // Prepare
    const customer = email();
    await ingest(event('payment_failed', customer, { card_exp_month: 3, card_exp_year: 2027 }));
    // Act
    await ingest(event('payment_failed', customer));
    const kept = await customerOf(customer);
    await ingest(event('payment_failed', customer, { card_exp_month: 5, card_exp_year: 2028 }));
    // Assess
    expect(kept.card_expiry).toEqual({ month: 3, year: 2027 });
    const replaced = await customerOf(customer);
    expect(replaced.card_expiry).toEqual({ month: 5, year: 2028 });
    expect((await indexedMonths(tenant.merchant.id, ['2027-03', '2028-05'])).get(replaced.id)).toEqual(['2028-05']);
  }, 30_000);

  it('takes the new card expiry of payment_method_updated, and clears it when the new card comes without one', async () => {
    // Prepare
    const customer = email();
    await ingest(event('payment_failed', customer, { card_exp_month: 1, card_exp_year: 2027 }));
    const { id } = await customerOf(customer);
    // Act
    await ingest(event('payment_method_updated', customer, { card_exp_month: 9, card_exp_year: 2030 }));
    const updated = await customerOf(customer);
    const indexedAfterUpdate = (await indexedMonths(tenant.merchant.id, ['2027-01', '2030-09'])).get(id);
    await ingest(event('payment_method_updated', customer));
    // Assess
    expect(updated.card_expiry).toEqual({ month: 9, year: 2030 });
    expect(indexedAfterUpdate).toEqual(['2030-09']);
    expect((await customerOf(customer)).card_expiry).toBeNull();
    expect((await indexedMonths(tenant.merchant.id, ['2027-01', '2030-09'])).get(id)).toBeUndefined();
  }, 30_000);

  it('shows card_expiry null for a customer no event told of', async () => {
    // Prepare
    const customer = email();
    // Act
    await ingest(event('payment_failed', customer));
    // Assess
    expect((await customerOf(customer)).card_expiry).toBeNull();
  }, 30_000);

  it.each([
    ['metadata.card_exp_month', { card_exp_month: 13, card_exp_year: 2027 }],
    ['metadata.card_exp_month', { card_exp_month: 0, card_exp_year: 2027 }],
    ['metadata.card_exp_month', { card_exp_month: 'July', card_exp_year: 2027 }],
    ['metadata.card_exp_month', { card_exp_month: 1.5, card_exp_year: 2027 }],
    ['metadata.card_exp_year', { card_exp_month: 7, card_exp_year: 27 }],
    ['metadata.card_exp_year', { card_exp_month: 7, card_exp_year: '1'.repeat(10_000) }],
    ['metadata.card_exp_year', { card_exp_month: 7, card_exp_year: { year: 2027 } }],
  ])(
    'refuses a malformed expiry with 422 naming %s, and records nothing',
    async (param, metadata) => {
      // Prepare
      const customer = email();
      // Act
      const response = await ingest(event('payment_failed', customer, metadata));
      // Assess
      expect(response.status).toBe(422);
      expect((response.body as unknown as { error: { code: string; param: string } }).error).toMatchObject({ code: 'validation_error', param });
      const found = await call(`${stack.api_url}/customers/by-email/${encodeURIComponent(customer)}`, { key: tenant.key });
      expect(found.status).toBe(404);
    },
    30_000,
  );

  it.each([
    ['metadata.card_exp_month', { card_exp_year: 2027 }],
    ['metadata.card_exp_year', { card_exp_month: 7 }],
  ])(
    'refuses half an expiry as a missing field, 400 naming %s, and records nothing',
    async (param, metadata) => {
      // Prepare
      const customer = email();
      // Act
      const response = await ingest(event('payment_method_updated', customer, metadata));
      // Assess
      expect(response.status).toBe(400);
      expect((response.body as unknown as { error: { code: string; param: string } }).error).toMatchObject({ code: 'invalid_request', param });
      const found = await call(`${stack.api_url}/customers/by-email/${encodeURIComponent(customer)}`, { key: tenant.key });
      expect(found.status).toBe(404);
    },
    30_000,
  );
});
