import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { hashApiKey, isUsable, looksLikeApiKey } from '../../../functions/core/api-keys';
import type { ApiKeyRecord } from '../../../functions/core/api-keys';
import type { Merchant } from '../../../functions/core/merchants';
import { findApiKeyByHash } from '../../../functions/data/api-key-repository';
import { dynamo } from '../../../functions/data/client';
import { createMerchant } from '../../../functions/data/merchant-repository';
import { getProviderApiKey, getProviderSecret } from '../../../functions/data/provider-secret-repository';
import { gatewayNameFor } from '../../../functions/data/gateway-config-repository';

jest.setTimeout(30_000);

const root = join(__dirname, '..', '..', '..');
// The tsx that `npx tsx` resolves, run directly: npx adds a second or so and may print npm's own
// config warnings on stderr, which would blur the one-line-error checks.
const tsxCli = join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs');

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

function admin(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [tsxCli, 'bin/admin.ts', ...args],
      {
        cwd: root,
        env: { ...process.env, TABLE_NAME: process.env.TABLE_NAME, DYNAMODB_ENDPOINT: process.env.DYNAMODB_ENDPOINT, ...env },
      },
      (error, stdout, stderr) => resolve({ code: error === null ? 0 : Number(error.code), stdout, stderr }),
    );
  });
}

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
    expect(created).toMatchObject({ id: expect.stringMatching(/^merch_/), name: 'Acme', plan_tier: 'engine', rate_limits: { read_per_minute: 100, write_per_minute: 100 } });
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

  it('lists the merchant\'s keys without any key when running keys list', async () => {
    // Prepare
    const created = JSON.parse((await admin(['keys', 'create', '--merchant', merchant.id, '--scopes', 'admin', '--mode', 'test'])).stdout) as { id: string; key: string };
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
    ['an unknown psp for gateways set', () => ['gateways', 'set', '--merchant', merchant.id, '--psp', 'venmo', '--gateway', 'sandbox'], /unknown --psp "venmo"/],
    ['an unknown merchant for gateways set', () => ['gateways', 'set', '--merchant', 'merch_nope', '--psp', 'stripe', '--gateway', 'sandbox'], /merch_nope/],
    ['an unknown merchant for set-secret', () => ['providers', 'set-secret', '--merchant', 'merch_nope', '--psp', 'stripe', '--secret', 'whsec_x'], /merch_nope/],
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
