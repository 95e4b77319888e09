import {
  createTemplateSchemas,
  deleteTemplateSchemas,
  getTemplateSchemas,
  listTemplatesSchemas,
  previewTemplateSchemas,
  updateTemplateSchemas,
} from '#api/email/schemas';
import { builtInTemplates } from '#core/templates/built-in';
import { PLACEHOLDERS } from '#core/templates/placeholders';
import { createApiKey } from '#data/api-key-repository';
import { createMerchant } from '#data/merchant-repository';
import { templateExists } from '#data/template-repository';
import type { LocalStack } from '#lib/local/local-stack';
import { call } from '#test/fixtures/http';
import { startTestStack } from '#test/fixtures/local-stack';
import { seedPayment } from '#test/fixtures/payments';
import { expectOtherMerchantGets404, newTenant, type Tenant, UNLIMITED } from '#test/fixtures/tenants';
import { merchantItems } from './items';

interface TemplateData {
  id: string;
  name: string;
  channel: string;
  subject: string | null;
  html: string | null;
  text: string;
  whatsapp_content_sid: string | null;
  placeholders: string[];
  built_in: boolean;
  created_at: string;
  updated_at: string;
}
interface Body<T> {
  data: T;
  pagination?: { total: number; page: number; per_page: number; total_pages: number };
  meta: { merchant_id: string };
  error?: { code: string; param?: string; message: string };
}

const EMAIL = {
  name: 'Friendly reminder',
  subject: 'About your {{ amount }} payment',
  html: '<p>Hi {{customer_name}}, please <a href="{{update_payment_url}}">update your card</a>.</p>',
  text: 'Hi {{customer_name}}, update your card: {{update_payment_url}}',
};
const BUILT_INS = builtInTemplates().size;

describe('templates: /api/v1/templates', () => {
  let stack: LocalStack;
  let tenant: Tenant;
  const url = (path = ''): string => `${stack.api_url}/templates${path}`;
  const create = (body: unknown, key = tenant.key) => call<Body<TemplateData>>(url(), { method: 'POST', key, body });

  beforeAll(async () => {
    stack = await startTestStack();
    tenant = await newTenant(['admin'], UNLIMITED);
  }, 60_000);

  afterAll(async () => {
    await stack.stop();
  });

  describe('POST /templates', () => {
    it('saves an email template with a time-ordered tmpl_ id and the placeholders it uses', async () => {
      // Act
      const response = await create(EMAIL);
      // Assess
      expect(response.status).toBe(201);
      expect(() => createTemplateSchemas.responses[201].parse(response.body)).not.toThrow();
      expect(response.body.data).toEqual({
        id: expect.stringMatching(/^tmpl_[0-9A-Z]{26}$/),
        ...EMAIL,
        channel: 'email',
        whatsapp_content_sid: null,
        placeholders: ['customer_name', 'amount', 'update_payment_url'],
        built_in: false,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      expect(await templateExists(tenant.merchant.id, response.body.data.id)).toBe(true);
    });

    it('saves sms and whatsapp templates with text only', async () => {
      // Act
      const sms = await create({ name: 'SMS', channel: 'sms', text: 'Pay {{amount}}: {{update_payment_url}}' });
      const whatsapp = await create({
        name: 'WA',
        channel: 'whatsapp',
        text: 'Hi {{customer_name}}: {{update_payment_url}}',
        whatsapp_content_sid: `HX${'0123456789abcdef'.repeat(2)}`,
      });
      // Assess
      expect(sms.status).toBe(201);
      expect(sms.body.data).toMatchObject({ channel: 'sms', subject: null, html: null, placeholders: ['amount', 'update_payment_url'] });
      expect(whatsapp.status).toBe(201);
      expect(whatsapp.body.data).toMatchObject({ channel: 'whatsapp', whatsapp_content_sid: `HX${'0123456789abcdef'.repeat(2)}` });
    });

    it.each([
      ['an unknown placeholder in the text', { ...EMAIL, text: 'Hi {{ first_name }}' }, 422, 'validation_error', 'text'],
      ['__proto__ in the html', { ...EMAIL, html: '<p>{{__proto__}}</p>' }, 422, 'validation_error', 'html'],
      ['constructor in the subject', { ...EMAIL, subject: 'Hi {{constructor}}' }, 422, 'validation_error', 'subject'],
      ['an unclosed {{ in the html', { ...EMAIL, html: '<p>{{amount</p>' }, 422, 'validation_error', 'html'],
      ['a Handlebars helper', { ...EMAIL, text: '{{#if amount}}x{{/if}}' }, 422, 'validation_error', 'text'],
      ['an email without subject', { name: 'x', html: '<p>x</p>', text: 'x' }, 400, 'invalid_request', 'subject'],
      ['an email without html', { name: 'x', subject: 'x', text: 'x' }, 400, 'invalid_request', 'html'],
      ['a subject with a line break', { ...EMAIL, subject: 'a\r\nBcc: x@example.com' }, 422, 'validation_error', 'subject'],
      ['an sms with a subject', { name: 'x', channel: 'sms', subject: 'x', text: 'x' }, 422, 'validation_error', 'subject'],
      ['an unknown channel', { ...EMAIL, channel: 'fax' }, 422, 'validation_error', 'channel'],
      ['a bad content sid', { name: 'x', channel: 'whatsapp', text: 'x', whatsapp_content_sid: 'HX123' }, 422, 'validation_error', 'whatsapp_content_sid'],
      ['no name', { ...EMAIL, name: undefined }, 400, 'invalid_request', 'name'],
      ['a name over 200 characters', { ...EMAIL, name: 'n'.repeat(201) }, 422, 'validation_error', 'name'],
    ])('refuses %s with its status and param, and writes nothing', async (_case, body, status, code, param) => {
      // Prepare
      const before = await merchantItems(tenant.merchant.id);
      // Act
      const response = await create(body);
      // Assess
      expect({ status: response.status, code: response.body.error?.code, param: response.body.error?.param }).toEqual({ status, code, param });
      expect(await merchantItems(tenant.merchant.id)).toEqual(before);
    });

    it('says which placeholder is unknown and where', async () => {
      // Act
      const response = await create({ ...EMAIL, text: 'Hello,\nyour {{ plan }} is due' });
      // Assess
      expect(response.body.error?.message).toContain('unknown placeholder {{plan}} at line 2, column 6');
    });
  });

  describe('GET /templates and /templates/{id}', () => {
    it("lists the merchant's templates newest first, then the built-ins, with a total", async () => {
      // Prepare
      const own = await newTenant(['admin'], UNLIMITED);
      const first = await create({ ...EMAIL, name: 'first' }, own.key);
      const second = await create({ ...EMAIL, name: 'second' }, own.key);
      // Act
      const page1 = await call<Body<TemplateData[]>>(url('?per_page=3'), { key: own.key });
      const page2 = await call<Body<TemplateData[]>>(url('?per_page=3&page=2'), { key: own.key });
      // Assess
      expect(page1.status).toBe(200);
      expect(() => listTemplatesSchemas.responses[200].parse(page1.body)).not.toThrow();
      expect(page1.body.pagination).toEqual({ total: 2 + BUILT_INS, page: 1, per_page: 3, total_pages: Math.ceil((2 + BUILT_INS) / 3) });
      expect(page1.body.data.map((t) => t.id)).toEqual([second.body.data.id, first.body.data.id, 'tmpl_dunning_default']);
      expect(page1.body.data.map((t) => t.built_in)).toEqual([false, false, true]);
      expect(page2.body.data.map((t) => t.id)).toEqual([...builtInTemplates().keys()].slice(1, 4));
    });

    it("answers one of the merchant's templates, and a built-in", async () => {
      // Prepare
      const created = await create(EMAIL);
      // Act
      const own = await call<Body<TemplateData>>(url(`/${created.body.data.id}`), { key: tenant.key });
      const builtIn = await call<Body<TemplateData>>(url('/tmpl_card_update_sms'), { key: tenant.key });
      // Assess
      expect(own.status).toBe(200);
      expect(() => getTemplateSchemas.responses[200].parse(own.body)).not.toThrow();
      expect(own.body.data).toEqual(created.body.data);
      expect(builtIn.body.data).toMatchObject({ id: 'tmpl_card_update_sms', channel: 'sms', built_in: true, subject: null });
    });

    it("answers 404 for an unknown id and for another merchant's template", async () => {
      // Prepare
      const created = await create(EMAIL);
      // Act
      const unknown = await call<Body<unknown>>(url('/tmpl_01JZZZZZZZZZZZZZZZZZZZZZZZ'), { key: tenant.key });
      // Assess
      expect({ status: unknown.status, code: unknown.body.error?.code, param: unknown.body.error?.param }).toEqual({
        status: 404,
        code: 'resource_not_found',
        param: 'id',
      });
      await expectOtherMerchantGets404(url(`/${created.body.data.id}`));
    });
  });

  describe('PUT /templates/{id}', () => {
    it('changes the fields given, keeps the others and derives the placeholders again', async () => {
      // Prepare
      const created = await create(EMAIL);
      // Act
      const response = await call<Body<TemplateData>>(url(`/${created.body.data.id}`), {
        method: 'PUT',
        key: tenant.key,
        body: { text: 'Due {{retry_date}}: {{update_payment_url}}', name: 'Renamed' },
      });
      const read = await call<Body<TemplateData>>(url(`/${created.body.data.id}`), { key: tenant.key });
      // Assess
      expect(response.status).toBe(200);
      expect(() => updateTemplateSchemas.responses[200].parse(response.body)).not.toThrow();
      expect(response.body.data).toMatchObject({
        id: created.body.data.id,
        name: 'Renamed',
        subject: EMAIL.subject,
        html: EMAIL.html,
        text: 'Due {{retry_date}}: {{update_payment_url}}',
        placeholders: ['customer_name', 'amount', 'retry_date', 'update_payment_url'],
        created_at: created.body.data.created_at,
      });
      expect(read.body.data).toEqual(response.body.data);
    });

    it.each([
      ['an unknown placeholder', { html: '<p>{{ nope }}</p>' }, 422, 'html'],
      ['a change of channel', { channel: 'sms' }, 422, 'channel'],
      ['clearing the subject of an email', { subject: null }, 400, 'subject'],
    ])('refuses %s with param and leaves the template as it was', async (_case, body, status, param) => {
      // Prepare
      const created = await create(EMAIL);
      // Act
      const response = await call<Body<unknown>>(url(`/${created.body.data.id}`), { method: 'PUT', key: tenant.key, body });
      const read = await call<Body<TemplateData>>(url(`/${created.body.data.id}`), { key: tenant.key });
      // Assess
      expect({ status: response.status, param: response.body.error?.param }).toEqual({ status, param });
      expect(read.body.data).toEqual(created.body.data);
    });

    it('refuses to change a built-in with 409, and an unknown or foreign id with 404', async () => {
      // Prepare
      const created = await create(EMAIL);
      // Act
      const builtIn = await call<Body<unknown>>(url('/tmpl_soft_decline_1'), { method: 'PUT', key: tenant.key, body: { name: 'Mine' } });
      const unknown = await call<Body<unknown>>(url('/tmpl_nope'), { method: 'PUT', key: tenant.key, body: { name: 'Mine' } });
      // Assess
      expect({ status: builtIn.status, code: builtIn.body.error?.code }).toEqual({ status: 409, code: 'state_conflict' });
      expect({ status: unknown.status, param: unknown.body.error?.param }).toEqual({ status: 404, param: 'id' });
      await expectOtherMerchantGets404(url(`/${created.body.data.id}`), { method: 'PUT', body: { name: 'Stolen' } });
      expect((await call<Body<TemplateData>>(url(`/${created.body.data.id}`), { key: tenant.key })).body.data.name).toBe(EMAIL.name);
    });
  });

  describe('DELETE /templates/{id}', () => {
    it('deletes a template of the merchant, which is then gone and no longer counted', async () => {
      // Prepare
      const own = await newTenant(['admin'], UNLIMITED);
      const created = await create(EMAIL, own.key);
      // Act
      const response = await call<Body<{ id: string; deleted: boolean }>>(url(`/${created.body.data.id}`), { method: 'DELETE', key: own.key });
      const read = await call<Body<unknown>>(url(`/${created.body.data.id}`), { key: own.key });
      const list = await call<Body<TemplateData[]>>(url(), { key: own.key });
      // Assess
      expect(response.status).toBe(200);
      expect(() => deleteTemplateSchemas.responses[200].parse(response.body)).not.toThrow();
      expect(response.body.data).toEqual({ id: created.body.data.id, deleted: true });
      expect(read.status).toBe(404);
      expect(list.body.pagination?.total).toBe(BUILT_INS);
      expect(await templateExists(own.merchant.id, created.body.data.id)).toBe(false);
    });

    it("refuses a built-in with 409 and another merchant's template with 404", async () => {
      // Prepare
      const created = await create(EMAIL);
      // Act
      const builtIn = await call<Body<unknown>>(url('/tmpl_dunning_default'), { method: 'DELETE', key: tenant.key });
      // Assess
      expect({ status: builtIn.status, code: builtIn.body.error?.code }).toEqual({ status: 409, code: 'state_conflict' });
      await expectOtherMerchantGets404(url(`/${created.body.data.id}`), { method: 'DELETE' });
      expect((await call(url(`/${created.body.data.id}`), { key: tenant.key })).status).toBe(200);
    });
  });

  describe('GET /templates/preview/{id}', () => {
    interface Preview {
      id: string;
      name: string;
      channel: string;
      subject: string | null;
      html_preview: string | null;
      text_preview: string;
      placeholders: string[];
    }
    const preview = (id: string, key = tenant.key) => call<Body<Preview>>(url(`/preview/${id}`), { key });

    it("renders a built-in with the merchant's name and sample data, in usd before any payment", async () => {
      // Prepare
      const own = await newTenant(['admin'], UNLIMITED);
      // Act
      const response = await preview('tmpl_dunning_default', own.key);
      // Assess
      expect(response.status).toBe(200);
      expect(() => previewTemplateSchemas.responses[200].parse(response.body)).not.toThrow();
      expect(response.body.data).toMatchObject({
        id: 'tmpl_dunning_default',
        name: 'Payment failed (manual reminder)',
        channel: 'email',
        subject: `Your payment of $49.99 to ${own.merchant.name} did not go through`,
        placeholders: [...PLACEHOLDERS],
      });
      expect(response.body.data.text_preview).toContain('Hello Jane Doe,');
      expect(response.body.data.html_preview).toMatch(/href="http:\/\/127\.0\.0\.1:\d+\/api\/update-payment\/preview"/);
      expect(response.body.data.html_preview).not.toContain('{{');
    });

    it("uses the currency of the merchant's latest payment (jpy: no decimals)", async () => {
      // Prepare
      const own = await newTenant(['admin'], UNLIMITED);
      await seedPayment(own.merchant.id, { amount: 5000, currency: 'jpy' });
      // Act
      const response = await preview('tmpl_soft_decline_1', own.key);
      // Assess
      expect(response.body.data.subject).toBe('We could not process your payment of ¥4,999');
    });

    it("renders the merchant's own template with values escaped in html only, and an sms with text only", async () => {
      // Prepare
      const merchant = await createMerchant({ name: `Ben & Jerry's <Ices>`, rate_limits: UNLIMITED });
      const { key } = await createApiKey({ merchantId: merchant.id, scopes: ['admin'], mode: 'test' });
      const email = await create({ ...EMAIL, html: '<b>{{merchant_name}}</b>', text: '{{merchant_name}} {{amount_cents}} {{currency}}' }, key);
      const sms = await create({ name: 'SMS', channel: 'sms', text: '{{merchant_name}}: {{update_payment_url}}' }, key);
      // Act
      const emailPreview = await preview(email.body.data.id, key);
      const smsPreview = await preview(sms.body.data.id, key);
      // Assess
      expect(emailPreview.body.data.html_preview).toBe('<b>Ben &amp; Jerry&#39;s &lt;Ices&gt;</b>');
      expect(emailPreview.body.data.text_preview).toBe("Ben & Jerry's <Ices> 4999 USD");
      expect(smsPreview.body.data).toMatchObject({ channel: 'sms', subject: null, html_preview: null });
      expect(smsPreview.body.data.text_preview).toMatch(/^Ben & Jerry's <Ices>: http:\/\/127\.0\.0\.1:\d+\/api\/update-payment\/preview$/);
    });

    it("answers 404 with param id for an unknown id and another merchant's template", async () => {
      // Prepare
      const created = await create(EMAIL);
      // Act
      const unknown = await preview('tmpl_does_not_exist');
      // Assess
      expect({ status: unknown.status, param: unknown.body.error?.param }).toEqual({ status: 404, param: 'id' });
      await expectOtherMerchantGets404(url(`/preview/${created.body.data.id}`));
    });
  });
});
