/**
 * POST /api/v1/win-back/{customerId} over HTTP: the offer is recorded with the email that carries
 * it (201), and the notifications consumer sends that email even though the customer's payment is
 * terminal, stating the offer; a campaign may be named; another merchant's customer or campaign
 * is 404, an erased customer too; bad input 400/422 with `param`; the write scope is needed.
 */
import { listOutboxEmails } from '#adapters/email/outbox';
import { startWinBackSchemas } from '#api/win-back/schemas';
import { getMessage } from '#data/message-repository';
import { eraseCustomer } from '#services/erase-customer';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { winBackBodyOf } from '#core/win-back';
import { documentClient } from '#data/client';
import { winBackKeys } from '#data/keys';
import { env } from '#shared/env';
import type { LocalStack } from '#lib/local/local-stack';
import { createCampaignWithEmail } from '#test/fixtures/ab-tests';
import { call } from '#test/fixtures/http';
import { startTestStack } from '#test/fixtures/local-stack';
import { seedPaymentThrough } from '#test/fixtures/payments';
import { expectOtherMerchantGets404, newTenant, type Tenant, UNLIMITED } from '#test/fixtures/tenants';

interface WinBackBody {
  data: { id: string; customer_id: string; campaign_id: string | null; message_id: string; offer_type: string; offer_value: string };
  error?: { code: string; param?: string };
}

describe('POST /api/v1/win-back/{customerId}', () => {
  let stack: LocalStack;
  let tenant: Tenant;
  const url = (customerId: string): string => `${stack.api_url}/win-back/${encodeURIComponent(customerId)}`;
  const winBack = (customerId: string, body: unknown, key = tenant.key) => call<WinBackBody>(url(customerId), { method: 'POST', key, body });
  let sequence = 0;
  const lostCustomer = async () => {
    sequence += 1;
    return seedPaymentThrough(tenant.merchant.id, ['terminate'], {
      customer: { email: `lost${sequence}@example.com`, name: 'Lou Lost', psp: 'stripe', provider_customer_id: `cus_lost${sequence}` },
    });
  };

  beforeAll(async () => {
    stack = await startTestStack();
    tenant = await newTenant(['admin'], UNLIMITED);
  }, 60_000);

  afterAll(async () => {
    await stack.stop();
  });

  it('records the offer, answers 201, and the email goes out stating it although the payment is terminal', async () => {
    // Prepare
    const payment = await lostCustomer();
    // Act
    const response = await winBack(payment.customer_id, { offer_type: 'discount', offer_value: '30% off <your> next 3 months' });
    await stack.runtime.queues.drain();
    const message = await getMessage(tenant.merchant.id, response.body.data.message_id);
    const sent = (await listOutboxEmails(tenant.merchant.id)).filter((email) => email.message_id === response.body.data.message_id);
    // Assess
    expect(response.status).toBe(201);
    expect(startWinBackSchemas.responses[201].safeParse(response.body).success).toBe(true);
    expect(response.body.data).toMatchObject({
      id: expect.stringMatching(/^wb_/),
      object: 'win_back',
      customer_id: payment.customer_id,
      campaign_id: null,
      offer_type: 'discount',
      offer_value: '30% off <your> next 3 months',
      channel: 'email',
    });
    expect(message).toMatchObject({
      purpose: 'win_back',
      status: 'sent',
      to: payment.customer_email,
      offer: { type: 'discount', value: '30% off <your> next 3 months' },
    });
    expect(sent).toHaveLength(1);
    expect(sent[0]?.subject).toBe(`An offer to welcome you back to ${tenant.merchant.name}`);
    expect(sent[0]?.text).toContain('We would like to offer you a discount: 30% off <your> next 3 months.');
    expect(sent[0]?.html).toContain('30% off &lt;your&gt; next 3 months');
    expect(sent[0]?.text).toMatch(/\/update-payment\/[A-Za-z0-9_-]{43}\b/);
  });

  it("takes the provider's customer id and a campaign of the merchant's", async () => {
    // Prepare
    await lostCustomer();
    const campaignId = await createCampaignWithEmail(stack.api_url, tenant.key);
    // Act
    const response = await winBack(`cus_lost${sequence}`, { campaign_id: campaignId, offer_type: 'pause', offer_value: 'up to 2 months' });
    // Assess
    expect(response.status).toBe(201);
    expect(response.body.data).toMatchObject({ campaign_id: campaignId, offer_type: 'pause' });
    expect(await getMessage(tenant.merchant.id, response.body.data.message_id)).toMatchObject({ campaign_id: campaignId, purpose: 'win_back' });
  });

  it("answers 404 for another merchant's customer, and for another merchant's campaign", async () => {
    // Prepare
    const payment = await lostCustomer();
    const stranger = await newTenant(['admin'], UNLIMITED);
    const theirCampaign = await createCampaignWithEmail(stack.api_url, stranger.key);
    // Act
    const campaign = await winBack(payment.customer_id, { campaign_id: theirCampaign, offer_type: 'custom', offer_value: 'A free month' });
    // Assess
    await expectOtherMerchantGets404(url(payment.customer_id), { method: 'POST', body: { offer_type: 'custom', offer_value: 'A free month' } });
    expect(campaign.status).toBe(404);
    expect(campaign.body.error).toMatchObject({ code: 'resource_not_found', param: 'campaign_id' });
  });

  it('erases the offer and its link with the customer, and then refuses the customer with 404', async () => {
    // Prepare: an offer sent, its email carrying an update-payment link.
    const payment = await lostCustomer();
    const sent = await winBack(payment.customer_id, { offer_type: 'custom', offer_value: 'A free month' });
    await stack.runtime.queues.drain();
    const email = (await listOutboxEmails(tenant.merchant.id)).find((candidate) => candidate.message_id === sent.body.data.message_id);
    const link = /https?:\/\/\S+\/update-payment\/[A-Za-z0-9_-]{43}/.exec(email?.text ?? '')?.[0] as string;
    const before = await call(link, { redirect: 'manual' });
    // Act
    await eraseCustomer(tenant.merchant.id, payment.customer_id);
    const response = await winBack(payment.customer_id, { offer_type: 'custom', offer_value: 'A free month' });
    const after = await call(link, { redirect: 'manual' });
    const { Item: offer } = await documentClient.send(
      new GetCommand({ TableName: env.TABLE_NAME, Key: winBackKeys.offer(tenant.merchant.id, winBackBodyOf(sent.body.data.id) as string) }),
    );
    // Assess
    expect(before.status).not.toBe(404);
    expect(after.status).toBe(404);
    expect(offer).toBeUndefined();
    expect(response.status).toBe(404);
    expect(response.body.error).toMatchObject({ code: 'resource_not_found', param: 'customerId' });
  });

  it.each([
    ['no offer_type', { offer_value: 'x' }, 400, 'invalid_request', 'offer_type'],
    ['an unknown offer_type', { offer_type: 'refund', offer_value: 'x' }, 422, 'validation_error', 'offer_type'],
    ['an empty offer_value', { offer_type: 'discount', offer_value: '  ' }, 422, 'validation_error', 'offer_value'],
    ['a 201-character offer_value', { offer_type: 'discount', offer_value: 'x'.repeat(201) }, 422, 'validation_error', 'offer_value'],
    ['template braces in offer_value', { offer_type: 'custom', offer_value: 'Hi {{customer_email}}' }, 422, 'validation_error', 'offer_value'],
    ['an offer_value that is not a string', { offer_type: 'discount', offer_value: 20 }, 422, 'validation_error', 'offer_value'],
  ])('refuses %s with the error envelope, writing nothing', async (_label, body, status, code, param) => {
    // Prepare: what earlier tests queued is sent first.
    const payment = await lostCustomer();
    await stack.runtime.queues.drain();
    const before = (await listOutboxEmails(tenant.merchant.id)).length;
    // Act
    const response = await winBack(payment.customer_id, body);
    await stack.runtime.queues.drain();
    // Assess
    expect(response.status).toBe(status);
    expect(response.body.error).toMatchObject({ code, param });
    expect((await listOutboxEmails(tenant.merchant.id)).length).toBe(before);
  });

  it('answers 404 for a 10 KB customer id and needs the write scope', async () => {
    // Prepare
    const payment = await lostCustomer();
    const reader = await newTenant(['read'], UNLIMITED);
    // Act
    const long = await winBack('c'.repeat(10_240), { offer_type: 'custom', offer_value: 'x' });
    const readOnly = await winBack(payment.customer_id, { offer_type: 'custom', offer_value: 'x' }, reader.key);
    // Assess
    expect(long.status).toBe(404);
    expect(readOnly.status).toBe(403);
  });
});
