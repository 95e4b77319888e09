/**
 * /api/cancel-session/* (edge host) over HTTP: start with the merchant's key (token shown once,
 * stored as a hash), get, advance (survey branches to an offer; accept or decline), complete (once,
 * with the cancel_session.completed event), redemption caps, expiry, the statistics on
 * GET /cancel-flows and the daily 30-day save re-check; scopes, other merchants, bad input.
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { advanceCancelSessionSchemas, completeCancelSessionSchemas, getCancelSessionSchemas, startCancelSessionSchemas } from '#api/cancel-sessions/schemas';
import { hashSessionToken } from '#core/session-tokens';
import { documentClient } from '#data/client';
import { cancelFlowKeys } from '#data/keys';
import { listOutboundEvents } from '#data/outbound-event-repository';
import type { LocalStack } from '#lib/local/local-stack';
import { recheckCancelSaves } from '#services/recheck-cancel-saves';
import { createFlow, SURVEY_FLOW } from '#test/fixtures/cancel-flows';
import { moveThrough, seedCustomerPayment } from '#test/fixtures/customers';
import { call } from '#test/fixtures/http';
import { originOf, startTestStack } from '#test/fixtures/local-stack';
import { newTenant, type Tenant, UNLIMITED } from '#test/fixtures/tenants';

interface Session {
  id: string;
  state: string;
  token?: string;
  url?: string;
  current_step: { id: string; step_type: string; offer: { type: string; value: number | string } | null } | null;
  step_number: number | null;
  outcome: string | null;
  accepted_offer: { step_id: string; type: string; value: number | string } | null;
  save_status: string | null;
  reason: string | null;
  created_at: string;
  expires_at: string;
}
interface Body {
  data: Session;
  error?: { code: string; param?: string; message: string };
}
interface FlowList {
  data: Array<{ id: string; stats: Record<string, unknown> }>;
}

/** A flow whose survey branches to a downgrade offer and to a custom one (neither a discount nor a pause: both save as saved_other). */
const DOWNGRADE_FLOW = {
  name: 'Downgrade before cancelling',
  steps: [
    {
      id: 'why',
      step_type: 'survey',
      title: 'Why do you want to cancel?',
      options: [
        { value: 'too_expensive', label: 'It is too expensive', next_step: 'downgrade' },
        { value: 'missing_features', label: 'It lacks features I need', next_step: 'onboarding' },
        { value: 'other', label: 'Something else' },
      ],
    },
    { id: 'downgrade', step_type: 'offer', title: 'Keep the essentials for less', offer: { type: 'downgrade', value: 'Basic (9 USD a month)' } },
    { id: 'onboarding', step_type: 'offer', title: 'Let us show you around', offer: { type: 'custom', value: 'A free 30-minute onboarding call' } },
    { id: 'confirm', step_type: 'confirm', title: 'Confirm your cancellation' },
  ],
};

/** Path segments that hold no token, made from a real one: too long (a character more, or 10 KB), not base64url, broken percent-encoding. */
const NOT_TOKENS = [
  ['44 characters', (token: string) => `${token}A`],
  ['10 KB', () => 'A'.repeat(10 * 1024)],
  ['not base64url', () => 'not*a*token'],
  ['broken percent-encoding', () => '%E0%A4%A'],
] as const;

describe('/api/cancel-session', () => {
  let stack: LocalStack;
  let tenant: Tenant;
  let customerId: string;
  let flowId: string;
  const edge = (path: string) => `${originOf(stack)}/api/cancel-session${path}`;
  const start = (body: Record<string, unknown> = {}, key = tenant.key) =>
    call<Body>(edge('/start'), { method: 'POST', key, body: { merchant_id: tenant.merchant.id, customer_id: customerId, ...body } });
  const advance = (token: string, body: unknown) => call<Body>(edge(`/${token}/advance`), { method: 'POST', body });
  const complete = (token: string, body: unknown) => call<Body>(edge(`/${token}/complete`), { method: 'POST', body });
  const newCustomer = async (merchantId: string) =>
    (await seedCustomerPayment(merchantId, { email: `c${Math.random().toString(36).slice(2, 8)}@example.com` })).customer_id;

  beforeAll(async () => {
    stack = await startTestStack();
  });
  beforeEach(async () => {
    tenant = await newTenant(['admin'], UNLIMITED);
    customerId = await newCustomer(tenant.merchant.id);
    flowId = await createFlow(stack.api_url, tenant, SURVEY_FLOW, true);
  });
  afterAll(async () => {
    await stack.stop();
  });

  describe('POST /start', () => {
    it('answers 201 with a 43-character token shown once, the page URL and the first step; only the hash is stored', async () => {
      // Act
      const response = await start({ subscription_id: 'sub_123' });
      // Assess
      expect(response.status).toBe(201);
      expect(startCancelSessionSchemas.responses[201].safeParse(response.body).success).toBe(true);
      const { token, url } = response.body.data;
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(url).toBe(`${originOf(stack)}/cancel/${token}`);
      expect(Date.parse(response.body.data.expires_at) - Date.parse(response.body.data.created_at)).toBe(24 * 3600 * 1000);
      expect(response.body.data).toMatchObject({ state: 'in_progress', step_number: 1, current_step: { id: 'why', step_type: 'survey' } });
      const { Item } = await documentClient.send(
        new GetCommand({ TableName: process.env.TABLE_NAME, Key: cancelFlowKeys.session(hashSessionToken(token as string)) }),
      );
      expect(Item?.merchant_id).toBe(tenant.merchant.id);
      expect(JSON.stringify(Item)).not.toContain(token);
    });

    it("refuses another merchant's id in the body, and another merchant's customer, with 404", async () => {
      // Prepare
      const other = await newTenant(['admin'], UNLIMITED);
      const othersCustomer = await newCustomer(other.merchant.id);
      // Act
      const foreignMerchant = await start({ merchant_id: other.merchant.id, customer_id: othersCustomer });
      const foreignCustomer = await start({ customer_id: othersCustomer });
      // Assess
      expect({ status: foreignMerchant.status, param: foreignMerchant.body.error?.param }).toEqual({ status: 404, param: 'merchant_id' });
      expect({ status: foreignCustomer.status, param: foreignCustomer.body.error?.param }).toEqual({ status: 404, param: 'customer_id' });
    });

    it('answers 409 when the merchant has no active flow', async () => {
      // Prepare
      await call(`${stack.api_url}/cancel-flows/${flowId}/deactivate`, { method: 'POST', key: tenant.key });
      // Act
      const response = await start();
      // Assess
      expect({ status: response.status, code: response.body.error?.code }).toEqual({ status: 409, code: 'state_conflict' });
    });

    it('needs an API key with write or write:cancel-flows, and valid input', async () => {
      // Prepare
      const reader = await newTenant(['read'], UNLIMITED);
      // Act
      const noKey = await call<Body>(edge('/start'), { method: 'POST', body: { merchant_id: tenant.merchant.id, customer_id: customerId } });
      const readOnly = await start({ merchant_id: reader.merchant.id }, reader.key);
      const missing = await call<Body>(edge('/start'), { method: 'POST', key: tenant.key, body: { merchant_id: tenant.merchant.id } });
      const huge = await start({ customer_id: 'x'.repeat(10_000) });
      const idempotent = await call<Body>(edge('/start'), {
        method: 'POST',
        key: tenant.key,
        headers: { 'Idempotency-Key': 'start-1' },
        body: { merchant_id: tenant.merchant.id, customer_id: customerId },
      });
      // Assess
      expect(noKey.status).toBe(401);
      expect(readOnly.status).toBe(403);
      expect({ status: missing.status, param: missing.body.error?.param }).toEqual({ status: 400, param: 'customer_id' });
      expect({ status: huge.status, param: huge.body.error?.param }).toEqual({ status: 422, param: 'customer_id' });
      expect({ status: idempotent.status, param: idempotent.body.error?.param }).toEqual({ status: 400, param: 'Idempotency-Key' });
    });
  });

  describe('GET /{token}', () => {
    it('answers the state; 400 for an unknown query parameter, 404 for an unknown or expired token', async () => {
      // Prepare
      const token = (await start()).body.data.token as string;
      // Act
      const found = await call<Body>(edge(`/${token}`));
      const unknown = await call<Body>(edge(`/${'A'.repeat(43)}`));
      const unknownQuery = await call<Body>(edge(`/${token}?stauts=open`));
      await documentClient.send(
        new UpdateCommand({
          TableName: process.env.TABLE_NAME,
          Key: cancelFlowKeys.session(hashSessionToken(token)),
          UpdateExpression: 'SET expires_at = :past',
          ExpressionAttributeValues: { ':past': '2020-01-01T00:00:00.000Z' },
        }),
      );
      const expired = await call<Body>(edge(`/${token}`));
      // Assess
      expect(found.status).toBe(200);
      expect(getCancelSessionSchemas.responses[200].safeParse(found.body).success).toBe(true);
      expect({ status: unknownQuery.status, param: unknownQuery.body.error?.param }).toEqual({ status: 400, param: 'stauts' });
      expect(unknown.status).toBe(404);
      expect(expired.status).toBe(404);
    });
  });

  describe('a path that holds no token', () => {
    it.each(NOT_TOKENS)('answers a token of %s with 400 invalid_request naming token on GET, advance and complete', async (_name, tokenFrom) => {
      // Prepare
      const real = (await start()).body.data.token as string;
      const token = tokenFrom(real);
      // Act
      const responses = await Promise.all([
        call<Body>(edge(`/${token}`)),
        advance(token, { selected_reason: 'too_expensive' }),
        complete(token, { outcome: 'cancelled' }),
      ]);
      const state = await call<Body>(edge(`/${real}`));
      // Assess
      for (const response of responses) {
        expect({ status: response.status, code: response.body.error?.code, param: response.body.error?.param }).toEqual({
          status: 400,
          code: 'invalid_request',
          param: 'token',
        });
        expect(response.text.length).toBeLessThan(1000);
      }
      expect(state.body.data).toMatchObject({ state: 'in_progress', current_step: { id: 'why' } });
    });

    it.each(NOT_TOKENS)('shows the hosted page of a token of %s as its own 400 page, an unknown token as its 404 page', async (_name, tokenFrom) => {
      // Prepare
      const token = tokenFrom((await start()).body.data.token as string);
      // Act
      const page = await call(`${originOf(stack)}/cancel/${token}`);
      const unknown = await call(`${originOf(stack)}/cancel/${'A'.repeat(43)}`);
      // Assess
      expect(page.status).toBe(400);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect(page.text).toContain('<h1 id="title" tabindex="-1">This link is not complete</h1>');
      expect(page.headers.get('content-security-policy')).toMatch(/^default-src 'none'/);
      expect(unknown.status).toBe(404);
      expect(unknown.text).toContain('This link has expired');
    });
  });

  describe('advance and complete', () => {
    it('branches a survey answer to its offer; declined, the customer cancels; the event is recorded once', async () => {
      // Prepare
      const token = (await start()).body.data.token as string;
      // Act
      const survey = await advance(token, { selected_reason: 'too_expensive' });
      const declined = await advance(token, { response: { accepted: false } });
      const [first, second] = await Promise.all([complete(token, { outcome: 'cancelled', feedback: 'Too pricey' }), complete(token, { outcome: 'cancelled' })]);
      const after = await advance(token, {});
      // Assess
      expect(advanceCancelSessionSchemas.responses[200].safeParse(survey.body).success).toBe(true);
      expect(survey.body.data.current_step).toMatchObject({ id: 'discount', offer: { type: 'discount', value: 30 } });
      expect(declined.body.data.current_step?.id).toBe('pause');
      expect([first.status, second.status].sort()).toEqual([200, 409]);
      const done = first.status === 200 ? first : second;
      expect(completeCancelSessionSchemas.responses[200].safeParse(done.body).success).toBe(true);
      expect(done.body.data).toMatchObject({ state: 'completed', outcome: 'cancelled', reason: 'too_expensive', save_status: null });
      expect(after.status).toBe(409);
      const events = (await listOutboundEvents(tenant.merchant.id)).filter((event) => event.types.includes('cancel_session.completed'));
      expect(events).toHaveLength(1);
      expect(events[0]?.data.object).toMatchObject({ session_id: done.body.data.id, flow_id: flowId, customer_id: customerId, outcome: 'cancelled' });
    });

    it('completes as saved when the customer accepts the offer, and skips it next time once its cap is reached', async () => {
      // Prepare
      const token = (await start()).body.data.token as string;
      await advance(token, { selected_reason: 'too_expensive' });
      // Act
      const accepted = await advance(token, { response: { accepted: true } });
      const again = (await start()).body.data.token as string;
      const branched = await advance(again, { selected_reason: 'too_expensive' });
      // Assess
      expect(accepted.body.data).toMatchObject({
        state: 'completed',
        outcome: 'saved_discount',
        save_status: 'pending',
        accepted_offer: { step_id: 'discount', type: 'discount' },
      });
      expect(branched.body.data.current_step?.id).toBe('pause');
    });

    it('saves as saved_other a downgrade accepted, a custom offer completed as saved_other and a customer who keeps the subscription at the confirm step; the statistics count them', async () => {
      // Prepare
      const downgradeFlow = await createFlow(stack.api_url, tenant, DOWNGRADE_FLOW, true);
      const downgrading = (await start()).body.data.token as string;
      const onboarding = (await start()).body.data.token as string;
      const keeping = (await start()).body.data.token as string;
      // Act
      const offered = await advance(downgrading, { selected_reason: 'too_expensive' });
      const downgraded = await advance(downgrading, { response: { accepted: true } });
      await advance(onboarding, { selected_reason: 'missing_features' });
      const onboarded = await complete(onboarding, { outcome: 'saved_other' });
      // Both offers are now used up by this customer (cap 1): the survey's answer goes on to the confirmation.
      const confirming = await advance(keeping, { selected_reason: 'other' });
      const kept = await complete(keeping, { outcome: 'saved_other', feedback: 'Changed my mind' });
      await stack.runtime.stream.drain();
      const listed = await call<FlowList>(`${stack.api_url}/cancel-flows`, { key: tenant.key });
      // Assess
      expect(offered.body.data.current_step).toMatchObject({ id: 'downgrade', offer: { type: 'downgrade', value: 'Basic (9 USD a month)' } });
      expect(downgraded.body.data).toMatchObject({
        state: 'completed',
        outcome: 'saved_other',
        save_status: 'pending',
        reason: 'too_expensive',
        accepted_offer: { step_id: 'downgrade', type: 'downgrade', value: 'Basic (9 USD a month)' },
      });
      expect(onboarded.status).toBe(200);
      expect(completeCancelSessionSchemas.responses[200].safeParse(onboarded.body).success).toBe(true);
      expect(onboarded.body.data).toMatchObject({ outcome: 'saved_other', accepted_offer: { step_id: 'onboarding', type: 'custom' } });
      expect(confirming.body.data.current_step?.id).toBe('confirm');
      expect(kept.status).toBe(200);
      expect(kept.body.data).toMatchObject({ state: 'completed', outcome: 'saved_other', accepted_offer: null, save_status: 'pending' });
      const events = (await listOutboundEvents(tenant.merchant.id)).filter((event) => event.types.includes('cancel_session.completed'));
      const downgradeEvent = events.find((event) => (event.data.object as { session_id?: string }).session_id === downgraded.body.data.id);
      expect(downgradeEvent?.data.object).toMatchObject({ flow_id: downgradeFlow, outcome: 'saved_other', accepted_offer: { type: 'downgrade' } });
      expect(listed.body.data.find((flow) => flow.id === downgradeFlow)?.stats).toMatchObject({
        started: 3,
        completed: 3,
        cancelled: 0,
        saved: { saved_discount: 0, saved_pause: 0, saved_other: 3, total: 3 },
      });
    }, 60_000);

    it('enforces the cap when two open sessions of one customer accept the same offer: the second is 409 and stays open', async () => {
      // Prepare
      const first = (await start()).body.data.token as string;
      const second = (await start()).body.data.token as string;
      await advance(first, { selected_reason: 'too_expensive' });
      await advance(second, { selected_reason: 'too_expensive' });
      // Act
      const accepted = await advance(first, { response: { accepted: true } });
      const refused = await advance(second, { response: { accepted: true } });
      const state = await call<Body>(edge(`/${second}`));
      // Assess
      expect(accepted.status).toBe(200);
      expect({ status: refused.status, code: refused.body.error?.code, param: refused.body.error?.param }).toEqual({
        status: 409,
        code: 'state_conflict',
        param: 'response.accepted',
      });
      expect(state.body.data).toMatchObject({ state: 'in_progress', current_step: { id: 'discount' } });
    });

    it('refuses bad answers with the envelope and param, never changing the session', async () => {
      // Prepare
      const token = (await start()).body.data.token as string;
      // Act
      const unknownReason = await advance(token, { selected_reason: 'bored' });
      const noReason = await advance(token, {});
      const badOutcome = await complete(token, { outcome: 'maybe' });
      const wrongSave = await complete(token, { outcome: 'saved_discount' });
      const proto = await call<Body>(edge(`/${token}/advance`), {
        method: 'POST',
        rawBody: '{"response":{"__proto__":{"x":1}}}',
        headers: { 'Content-Type': 'application/json' },
      });
      const state = await call<Body>(edge(`/${token}`));
      // Assess
      expect({ status: unknownReason.status, param: unknownReason.body.error?.param }).toEqual({ status: 422, param: 'selected_reason' });
      expect({ status: noReason.status, param: noReason.body.error?.param }).toEqual({ status: 400, param: 'selected_reason' });
      expect({ status: badOutcome.status, param: badOutcome.body.error?.param }).toEqual({ status: 422, param: 'outcome' });
      expect({ status: wrongSave.status, param: wrongSave.body.error?.param }).toEqual({ status: 422, param: 'outcome' });
      expect(proto.status).toBe(400);
      expect(state.body.data).toMatchObject({ state: 'in_progress', current_step: { id: 'why' } });
    });
  });

  describe('erasure', () => {
    it("removes the customer's sessions and redemptions with the customer: the token then answers 404", async () => {
      // Prepare
      const token = (await start()).body.data.token as string;
      await advance(token, { selected_reason: 'too_expensive' });
      await advance(token, { response: { accepted: true } });
      // Act
      const erased = await call(`${stack.api_url}/customers/${customerId}`, { method: 'DELETE', key: tenant.key });
      const after = await call<Body>(edge(`/${token}`));
      const page = await call(`${originOf(stack)}/cancel/${token}`);
      // Assess
      expect(erased.status).toBeLessThan(300);
      expect(after.status).toBe(404);
      expect(page.status).toBe(404);
      const { Item } = await documentClient.send(new GetCommand({ TableName: process.env.TABLE_NAME, Key: cancelFlowKeys.session(hashSessionToken(token)) }));
      expect(Item).toBeUndefined();
    });
  });

  describe('statistics and the 30-day save re-check', () => {
    it('counts sessions per flow and computes the save rate from saves still standing 30 days later', async () => {
      // Prepare: one cancelled, one abandoned, two saves (one of which churns), one left running
      const cancelled = (await start()).body.data.token as string;
      await complete(cancelled, { outcome: 'cancelled' });
      await complete((await start()).body.data.token as string, { outcome: 'abandoned' });
      const kept = (await start()).body.data.token as string;
      await advance(kept, { selected_reason: 'taking_a_break' });
      await advance(kept, { response: { accepted: true } });
      const churner = await seedCustomerPayment(tenant.merchant.id, { email: 'churner@example.com' });
      const churned = (await start({ customer_id: churner.customer_id })).body.data.token as string;
      await advance(churned, { selected_reason: 'too_expensive' });
      await advance(churned, { response: { accepted: true } });
      await moveThrough(tenant.merchant.id, churner, ['terminate']);
      await start();
      // Act
      await stack.runtime.stream.drain();
      const before = await call<FlowList>(`${stack.api_url}/cancel-flows`, { key: tenant.key });
      const summary = await recheckCancelSaves(new Date(Date.now() + 31 * 86_400_000));
      await stack.runtime.stream.drain();
      const after = await call<FlowList>(`${stack.api_url}/cancel-flows`, { key: tenant.key });
      const keptState = await call<Body>(edge(`/${kept}`));
      // Assess
      expect(before.body.data[0]?.stats).toMatchObject({
        started: 5,
        completed: 4,
        in_progress_or_expired: 1,
        cancelled: 1,
        abandoned: 1,
        saved: { saved_discount: 1, saved_pause: 1, saved_other: 0, total: 2 },
        save_window_closed: 0,
        save_rate: null,
      });
      // The due index spans merchants: the saves of this file's other tests are re-checked too.
      expect(summary.confirmed).toBeGreaterThanOrEqual(1);
      expect(summary.lost).toBeGreaterThanOrEqual(1);
      expect(after.body.data[0]?.stats).toMatchObject({ save_window_closed: 3, save_confirmed: 1, save_lost: 1, abandoned: 1 });
      expect(after.body.data[0]?.stats.save_rate).toBeCloseTo(1 / 3, 5);
      expect(keptState.body.data).toMatchObject({ outcome: 'saved_pause', save_status: 'confirmed' });
    }, 60_000);
  });
});
