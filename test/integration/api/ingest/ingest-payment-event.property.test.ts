/**
 * Property: any well-shaped ingest body, whatever its event type, amounts, ids, card-network
 * signals and free-form metadata, is answered 200, 400, 409 or 422: never a 5xx (a value the
 * schema accepts but DynamoDB or its SDK would refuse would show here as a 500).
 */
import fc from 'fast-check';
import { INGEST_EVENT_TYPES } from '#core/ingest/ingest-event';
import type { LocalStack } from '#lib/local/local-stack';
import { startTestStack } from '#test/fixtures/local-stack';
import { newTenant } from '#test/fixtures/tenants';

const optional = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined });
const recognised = fc.record(
  {
    event_id: optional(fc.string({ maxLength: 300 })),
    payment_id: optional(fc.oneof(fc.string({ maxLength: 300 }), fc.constantFrom('ch_shared', 'pe_01ARZ3NDEKTSV4RRFFQ69G5FAV'))),
    charge_id: optional(fc.constantFrom('ch_shared', 'ch_other')),
    psp: optional(fc.constantFrom('stripe', 'ADYEN', 'storefront', '')),
    invoice_id: optional(fc.string({ maxLength: 10 })),
    subscription_id: optional(fc.string({ maxLength: 10 })),
    network_code: optional(fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('04', '51', '14'))),
    network: optional(fc.constantFrom('visa', 'mastercard', 'VISA', 'other')),
    advice_code: optional(fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('03', '24', 'do_not_try_again'))),
    provider_customer_id: optional(fc.string({ maxLength: 4 })),
    customer_name: optional(fc.string({ maxLength: 60 })),
  },
  { requiredKeys: [] },
);
const freeForm = fc.dictionary(fc.string({ maxLength: 45 }), fc.jsonValue({ maxDepth: 4 }), { maxKeys: 5 });

describe('POST /api/v1/ingest/payment-event (property)', () => {
  let stack: LocalStack;
  let key: string;

  beforeAll(async () => {
    stack = await startTestStack();
    key = (await newTenant(['write'], { read_per_minute: 1_000_000, write_per_minute: 1_000_000 })).key;
  });

  afterAll(async () => {
    await stack.stop();
  });

  it('never answers a 5xx when random event bodies arrive', async () => {
    // Act and assess
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...INGEST_EVENT_TYPES),
        fc.oneof(fc.integer({ min: -5, max: 2e12 }), fc.double()),
        fc.constantFrom('usd', 'JPY', 'Eur', 'xx'),
        fc.constantFrom('a@b.co', 'A@B.CO', 'c@d.io', 'not-an-email'),
        fc.option(fc.string({ maxLength: 120 })),
        recognised,
        freeForm,
        async (eventType, amount, currency, email, declineCode, metadata, extra) => {
          const body = JSON.stringify({
            event_type: eventType,
            amount_cents: amount,
            currency,
            customer_email: email,
            decline_code: declineCode,
            metadata: { ...extra, ...metadata },
          });
          const response = await fetch(`${stack.api_url}/ingest/payment-event`, {
            method: 'POST',
            headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
            body,
          });
          const text = await response.text();
          if (![200, 400, 409, 422].includes(response.status)) throw new Error(`${response.status} ${text} for ${body}`);
        },
      ),
      { numRuns: 400 },
    );
  }, 300_000);
});
