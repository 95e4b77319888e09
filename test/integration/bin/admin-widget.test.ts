/**
 * The operator CLI's widget and hosted-page commands: `merchants widget-secret` (makes or rotates
 * the secret, printed once, stored sealed), `merchants branding` and `merchants
 * update-payment-page` (validated: https URLs, #rrggbb colours), each refusing bad arguments and
 * unknown merchants with a one-line error and exit code 2.
 */
import { randomBytes } from 'node:crypto';
import { InvalidSignatureError } from '#core/errors';
import { signWidget } from '#core/hosted';
import { dynamo } from '#data/client';
import { getHostedSettings } from '#data/hosted-settings-repository';
import { createMerchant } from '#data/merchant-repository';
import { verifyWidgetRequest } from '#services/widget';
import { admin } from '#test/fixtures/admin-cli';

// The first run bundles the CLI (bin/cli.mjs).
jest.setTimeout(90_000);

// The local secret box, shared by the CLI's process (it inherits the environment) and this one.
process.env.SECRET_BOX_DRIVER = 'local';
process.env.SECRET_BOX_KEY = randomBytes(32).toString('base64');

afterAll(() => dynamo.destroy());

const signedNow = (secret: string, merchantId: string, customerId: string) => {
  const timestamp = Math.floor(Date.now() / 1000);
  return { merchant_id: merchantId, customer_id: customerId, timestamp, signature: signWidget(secret, merchantId, customerId, timestamp) };
};

describe('admin CLI: merchants widget-secret', () => {
  it('prints a new secret once, stores it only sealed, and a rotation retires the one before', async () => {
    // Prepare
    const merchant = await createMerchant({ name: 'Widget secret Co' });
    // Act
    const first = await admin(['merchants', 'widget-secret', '--merchant', merchant.id]);
    const printed = JSON.parse(first.stdout) as { merchant_id: string; widget_secret: string };
    const stored = await getHostedSettings(merchant.id);
    const verifiedFirst = await verifyWidgetRequest(signedNow(printed.widget_secret, merchant.id, 'cus_1')).then(() => true);
    const rotated = JSON.parse((await admin(['merchants', 'widget-secret', '--merchant', merchant.id])).stdout) as { widget_secret: string };
    // Assess
    expect(first).toMatchObject({ code: 0, stderr: '' });
    expect(printed).toEqual({ merchant_id: merchant.id, widget_secret: expect.stringMatching(/^wsec_[A-Za-z0-9_-]{43}$/) });
    expect(stored.widget_secret_sealed).toMatch(/^v1\.local\./);
    expect(stored.widget_secret_sealed).not.toContain(printed.widget_secret.slice(5));
    expect(verifiedFirst).toBe(true);
    expect(rotated.widget_secret).not.toBe(printed.widget_secret);
    await expect(verifyWidgetRequest(signedNow(printed.widget_secret, merchant.id, 'cus_2'))).rejects.toBeInstanceOf(InvalidSignatureError);
    await expect(verifyWidgetRequest(signedNow(rotated.widget_secret, merchant.id, 'cus_2'))).resolves.toBeUndefined();
  });

  it('refuses an unknown merchant and a missing --merchant with exit code 2', async () => {
    // Act
    const unknown = await admin(['merchants', 'widget-secret', '--merchant', 'merch_nobody']);
    const missing = await admin(['merchants', 'widget-secret']);
    // Assess
    expect(unknown).toMatchObject({ code: 2, stdout: '', stderr: 'admin: unknown merchant "merch_nobody"\n' });
    expect(missing).toMatchObject({ code: 2, stdout: '', stderr: 'admin: merchants widget-secret: missing --merchant\n' });
  });
});

describe('admin CLI: merchants branding', () => {
  it('sets the fields given and keeps the others', async () => {
    // Prepare
    const merchant = await createMerchant({ name: 'Brand Co' });
    // Act
    const first = await admin([
      'merchants',
      'branding',
      '--merchant',
      merchant.id,
      '--logo-url',
      'https://cdn.example.com/b.png',
      '--primary-color',
      '#AA00FF',
    ]);
    const second = await admin(['merchants', 'branding', '--merchant', merchant.id, '--merchant-name', '  Brand  ']);
    // Assess
    expect(first.code).toBe(0);
    expect(JSON.parse(second.stdout)).toEqual({
      merchant_id: merchant.id,
      branding: { logo_url: 'https://cdn.example.com/b.png', primary_color: '#aa00ff', merchant_name: 'Brand' },
    });
  });

  it.each([
    ['an http logo', ['--logo-url', 'http://cdn.example.com/b.png'], 'logo_url must be an https URL'],
    ['a colour that is not #rrggbb', ['--primary-color', 'red'], 'primary_color must be a #rrggbb colour'],
    ['no field at all', [], 'give --logo-url, --primary-color or --merchant-name'],
  ])('refuses %s with exit code 2 and changes nothing', async (_label, args, message) => {
    // Prepare
    const merchant = await createMerchant({ name: 'Strict Co' });
    // Act
    const run = await admin(['merchants', 'branding', '--merchant', merchant.id, ...args]);
    // Assess
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
    expect((await getHostedSettings(merchant.id)).updated_at).toBeNull();
  });
});

describe('admin CLI: merchants update-payment-page', () => {
  it('sets an https provider page, and admits http only on loopback', async () => {
    // Prepare
    const merchant = await createMerchant({ name: 'Page Co' });
    // Act
    const https = await admin(['merchants', 'update-payment-page', '--merchant', merchant.id, '--url', 'https://billing.example.com/p/{provider_customer_id}']);
    const loopback = await admin(['merchants', 'update-payment-page', '--merchant', merchant.id, '--url', 'http://127.0.0.1:4000/card']);
    const plain = await admin(['merchants', 'update-payment-page', '--merchant', merchant.id, '--url', 'http://billing.example.com/p']);
    // Assess
    expect(JSON.parse(https.stdout)).toEqual({ merchant_id: merchant.id, update_payment_page_url: 'https://billing.example.com/p/{provider_customer_id}' });
    expect(JSON.parse(loopback.stdout)).toEqual({ merchant_id: merchant.id, update_payment_page_url: 'http://127.0.0.1:4000/card' });
    expect(plain.code).toBe(2);
    expect(plain.stderr).toContain('must be an https URL');
    expect((await getHostedSettings(merchant.id)).update_payment_page_url).toBe('http://127.0.0.1:4000/card');
  });
});
