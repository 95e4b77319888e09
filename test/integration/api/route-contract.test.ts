/**
 * The route contract over every built keyed row of the route table (test/fixtures/route-contract.ts):
 * a key holding one scope is refused with 403 exactly where the row's scopes do not grant it;
 * another merchant's key on this merchant's resource is 404; a body that is not a JSON object is
 * 400. New rows are covered the moment they are built.
 */
import type { Scope } from '#api/route-types';
import type { PaymentRecord } from '#core/payments';
import { createApiKey } from '#data/api-key-repository';
import type { LocalStack } from '#lib/local/local-stack';
import { call } from '#test/fixtures/http';
import { originOf, startTestStack } from '#test/fixtures/local-stack';
import { seedPayment } from '#test/fixtures/payments';
import { keyedRows, namesTenantResource, pathOf, scopeMatrix } from '#test/fixtures/route-contract';
import { newTenant, type Tenant, UNLIMITED } from '#test/fixtures/tenants';

type Answer = { error?: { code: string } };

describe('the route contract of every built keyed row', () => {
  let stack: LocalStack;
  let origin: string;
  let tenant: Tenant;
  let stranger: Tenant;
  let payment: PaymentRecord;
  const keys = new Map<Scope, string>();

  beforeAll(async () => {
    stack = await startTestStack();
    origin = originOf(stack);
    tenant = await newTenant(['admin'], UNLIMITED);
    stranger = await newTenant(['admin'], UNLIMITED);
    payment = await seedPayment(tenant.merchant.id, { subscriptionId: 'sub_contract_1', invoiceId: 'in_contract_1' });
  }, 60_000);

  afterAll(async () => {
    await stack?.stop();
  });

  const keyHolding = async (scope: Scope): Promise<string> => {
    const known = keys.get(scope);
    if (known !== undefined) return known;
    const { key } = await createApiKey({ merchantId: tenant.merchant.id, scopes: [scope], mode: 'test' });
    keys.set(scope, key);
    return key;
  };
  // Reads go first, so that a write granted to a scope (an erasure, a pause) changes nothing a read is asked about.
  const rows = [...keyedRows].sort((a, b) => Number(a.method !== 'GET') - Number(b.method !== 'GET'));

  it.each(rows.map((row) => [`${row.method} ${row.path}`, row] as const))(
    'refuses %s with 403 to exactly the scopes that do not grant it',
    async (_name, row) => {
      // Act
      const answers = [];
      for (const [scope, granted] of scopeMatrix(row)) {
        const response = await call<Answer>(`${origin}${pathOf(row, payment)}`, {
          method: row.method,
          key: await keyHolding(scope),
          ...(row.method === 'GET' ? {} : { body: {} }),
        });
        answers.push({ scope, granted, status: response.status, code: response.body?.error?.code });
      }
      // Assess
      for (const answer of answers) {
        if (answer.granted)
          expect({ scope: answer.scope, refused: answer.status === 401 || answer.status === 403 }).toEqual({ scope: answer.scope, refused: false });
        else expect(answer).toEqual({ scope: answer.scope, granted: false, status: 403, code: 'insufficient_scope' });
      }
    },
    60_000,
  );

  it.each(rows.filter(namesTenantResource).map((row) => [`${row.method} ${row.path}`, row] as const))(
    "answers another merchant's key on %s with 404",
    async (_name, row) => {
      // Act
      const response = await call<Answer>(`${origin}${pathOf(row, payment)}`, {
        method: row.method,
        key: stranger.key,
        ...(row.method === 'GET' ? {} : { body: {} }),
      });
      // Assess
      expect({ status: response.status, code: response.body?.error?.code }).toEqual({ status: 404, code: 'resource_not_found' });
    },
  );

  it.each(rows.filter((row) => row.schemas?.body !== undefined).map((row) => [`${row.method} ${row.path}`, row] as const))(
    'answers a body that is not a JSON object on %s with 400 invalid_request',
    async (_name, row) => {
      // Act
      const response = await call<Answer>(`${origin}${pathOf(row, payment)}`, {
        method: row.method,
        key: tenant.key,
        rawBody: '[1,2,3]',
        headers: { 'Content-Type': 'application/json' },
      });
      // Assess
      expect({ status: response.status, code: response.body?.error?.code }).toEqual({ status: 400, code: 'invalid_request' });
    },
  );
});
