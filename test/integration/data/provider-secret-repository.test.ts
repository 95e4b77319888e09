import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { InvalidProviderSecretError, MerchantNotFoundError, UnknownPspError } from '#core/merchants';
import { documentClient, dynamo } from '#data/client';
import { keys } from '#data/keys';
import { createMerchant } from '#data/merchant-repository';
import { getProviderSecret, setProviderSecret } from '#data/provider-secret-repository';

const TableName = process.env.TABLE_NAME as string;

afterAll(() => dynamo.destroy());

describe('provider secret repository', () => {
  it('stores a secret and reports it without the secret when set', async () => {
    // Prepare
    const merchant = await createMerchant({ name: 'Acme' });
    // Act
    const summary = await setProviderSecret(merchant.id, 'stripe', 'whsec_first');
    // Assess
    expect(summary).toEqual({ merchant_id: merchant.id, psp: 'stripe', updated_at: expect.any(String) });
    expect(JSON.stringify(summary)).not.toContain('whsec_first');
    expect(await getProviderSecret(merchant.id, 'stripe')).toEqual({ ...summary, secret: 'whsec_first' });
    const { Item } = await documentClient.send(new GetCommand({ TableName, Key: keys.providerSecret(merchant.id, 'stripe') }));
    expect(Item).toMatchObject({ entity: 'provider_secret', created_at: summary.updated_at });
  });

  it('replaces the secret and keeps created_at when set again', async () => {
    // Prepare
    const merchant = await createMerchant({ name: 'Acme' });
    const first = await setProviderSecret(merchant.id, 'adyen', 'old-hmac-key');
    await new Promise((resolve) => setTimeout(resolve, 5));
    // Act
    const second = await setProviderSecret(merchant.id, 'adyen', 'new-hmac-key');
    // Assess
    expect((await getProviderSecret(merchant.id, 'adyen'))?.secret).toBe('new-hmac-key');
    const { Item } = await documentClient.send(new GetCommand({ TableName, Key: keys.providerSecret(merchant.id, 'adyen') }));
    expect(Item).toMatchObject({ created_at: first.updated_at, updated_at: second.updated_at });
    expect(second.updated_at > first.updated_at).toBe(true);
  });

  it('throws MerchantNotFoundError and stores nothing when the merchant is unknown', async () => {
    // Act
    const setting = setProviderSecret('merch_unknown', 'stripe', 'whsec_x');
    // Assess
    await expect(setting).rejects.toBeInstanceOf(MerchantNotFoundError);
    expect(await getProviderSecret('merch_unknown', 'stripe')).toBeUndefined();
  });

  it('throws UnknownPspError when the psp is not one of the 13 providers', async () => {
    // Prepare
    const merchant = await createMerchant({ name: 'Acme' });
    // Act
    const setting = setProviderSecret(merchant.id, 'venmo', 'secret');
    const getting = getProviderSecret(merchant.id, 'venmo');
    // Assess
    await expect(setting).rejects.toBeInstanceOf(UnknownPspError);
    await expect(getting).rejects.toBeInstanceOf(UnknownPspError);
  });

  it.each(['', ' padded ', 'x'.repeat(4097)])('throws InvalidProviderSecretError when the secret is %p', async (secret) => {
    // Prepare
    const merchant = await createMerchant({ name: 'Acme' });
    // Act
    const setting = setProviderSecret(merchant.id, 'paddle', secret);
    // Assess
    await expect(setting).rejects.toBeInstanceOf(InvalidProviderSecretError);
  });

  it('returns undefined when no secret is set for the psp', async () => {
    // Prepare
    const merchant = await createMerchant({ name: 'Acme' });
    // Act
    const secret = await getProviderSecret(merchant.id, 'mollie');
    // Assess
    expect(secret).toBeUndefined();
  });
});
