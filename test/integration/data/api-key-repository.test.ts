import { GetCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { hashApiKey } from '#core/api-keys';
import { ApiKeyNotFoundError } from '#core/api-keys';
import { InvalidExpiryError, type Merchant, MerchantNotFoundError } from '#core/merchants';
import { createApiKey, findApiKeyByHash, isUsable, listApiKeys, revokeApiKey } from '#data/api-key-repository';
import { documentClient, dynamo } from '#data/client';
import { keys } from '#data/keys';
import { createMerchant } from '#data/merchant-repository';

const TableName = process.env.TABLE_NAME as string;

async function allItems(): Promise<Record<string, unknown>[]> {
  const { Items = [] } = await documentClient.send(new ScanCommand({ TableName, ConsistentRead: true }));
  return Items;
}

let merchant: Merchant;

beforeAll(async () => {
  merchant = await createMerchant({ name: 'Keyholder' });
});

afterAll(() => dynamo.destroy());

describe('api key repository', () => {
  it('creates a key and finds its record by hash when the merchant exists', async () => {
    // Act
    const { record, key } = await createApiKey({ merchantId: merchant.id, scopes: ['read', 'write'], mode: 'test' });
    // Assess
    expect(key).toMatch(/^rk_test_[0-9A-Za-z]{43}$/);
    expect(record).toEqual({
      id: expect.stringMatching(/^key_/),
      merchant_id: merchant.id,
      scopes: ['read', 'write'],
      mode: 'test',
      prefix: key.slice(0, 12),
      last4: key.slice(-4),
      created_at: expect.any(String),
      expires_at: null,
      revoked_at: null,
    });
    const found = await findApiKeyByHash(hashApiKey(key));
    expect(found).toEqual(record);
    expect(found !== undefined && isUsable(found)).toBe(true);
  });

  it('writes three items with their entity and never the key when a key is created', async () => {
    // Prepare
    const before = (await allItems()).length;
    // Act
    const { record, key } = await createApiKey({ merchantId: merchant.id, scopes: ['admin'] });
    // Assess
    const items = await allItems();
    expect(items).toHaveLength(before + 3);
    expect(JSON.stringify(items)).not.toContain(key);
    const { Item: lookup } = await documentClient.send(new GetCommand({ TableName, Key: keys.apiKeyById(record.id), ConsistentRead: true }));
    const { Item: owned } = await documentClient.send(new GetCommand({ TableName, Key: keys.apiKey(merchant.id, record.id), ConsistentRead: true }));
    const { Item: byHash } = await documentClient.send(new GetCommand({ TableName, Key: keys.apiKeyByHash(hashApiKey(key)), ConsistentRead: true }));
    expect(lookup).toMatchObject({ entity: 'api_key_id', merchant_id: merchant.id, key_hash: hashApiKey(key) });
    expect(owned).toMatchObject({ entity: 'api_key', id: record.id, mode: 'live' });
    expect(byHash).toMatchObject({ entity: 'api_key_hash', id: record.id, merchant_id: merchant.id, scopes: ['admin'] });
  });

  it('refuses with MerchantNotFoundError and writes nothing when the merchant is unknown', async () => {
    // Prepare
    const before = (await allItems()).length;
    // Act
    const creating = createApiKey({ merchantId: 'merch_unknown', scopes: ['read'] });
    // Assess
    await expect(creating).rejects.toBeInstanceOf(MerchantNotFoundError);
    expect(await allItems()).toHaveLength(before);
  });

  it('returns undefined when no key has the hash or the hash is malformed', async () => {
    // Act
    const unknown = await findApiKeyByHash(hashApiKey('rk_live_never-issued'));
    const malformed = await findApiKeyByHash('not-a-hash');
    // Assess
    expect(unknown).toBeUndefined();
    expect(malformed).toBeUndefined();
  });

  it('makes the key unusable on both items when it is revoked', async () => {
    // Prepare
    const { record, key } = await createApiKey({ merchantId: merchant.id, scopes: ['read'] });
    // Act
    const revoked = await revokeApiKey(record.id);
    // Assess
    expect(revoked).toEqual({ ...record, revoked_at: expect.any(String) });
    const found = await findApiKeyByHash(hashApiKey(key));
    expect(found?.revoked_at).toBe(revoked.revoked_at);
    expect(found !== undefined && isUsable(found)).toBe(false);
  });

  it('keeps the first revocation time when a key is revoked twice', async () => {
    // Prepare
    const { record } = await createApiKey({ merchantId: merchant.id, scopes: ['read'] });
    const first = await revokeApiKey(record.id);
    await new Promise((resolve) => setTimeout(resolve, 5));
    // Act
    const second = await revokeApiKey(record.id);
    // Assess
    expect(second.revoked_at).not.toBeNull();
    expect(second).toEqual(first);
  });

  it('throws ApiKeyNotFoundError when revoking an unknown key id', async () => {
    // Act
    const revoking = revokeApiKey('key_unknown');
    // Assess
    await expect(revoking).rejects.toBeInstanceOf(ApiKeyNotFoundError);
    await expect(revoking).rejects.toMatchObject({ code: 'resource_not_found', name: 'ApiKeyNotFoundError' });
  });

  it('sets the expiry from the lifetime and refuses the key after it when expiresInSeconds is given', async () => {
    // Act
    const { record, key } = await createApiKey({ merchantId: merchant.id, scopes: ['read'], expiresInSeconds: 3600 });
    // Assess
    const found = await findApiKeyByHash(hashApiKey(key));
    expect(found?.expires_at).toBe(new Date(Date.parse(record.created_at) + 3_600_000).toISOString());
    expect(found !== undefined && isUsable(found, new Date(Date.parse(record.created_at) + 3_599_000))).toBe(true);
    expect(found !== undefined && isUsable(found, new Date(Date.parse(record.created_at) + 3_600_000))).toBe(false);
  });

  it('refuses a key whose one-second lifetime has passed when read back later', async () => {
    // Prepare
    const { key } = await createApiKey({ merchantId: merchant.id, scopes: ['read'], expiresInSeconds: 1 });
    await new Promise((resolve) => setTimeout(resolve, 1100));
    // Act
    const found = await findApiKeyByHash(hashApiKey(key));
    // Assess
    expect(found).toBeDefined();
    expect(found !== undefined && isUsable(found)).toBe(false);
  });

  it.each([0, -5, 1.5, Number.NaN])('throws InvalidExpiryError when expiresInSeconds is %p', async (expiresInSeconds) => {
    // Act
    const creating = createApiKey({ merchantId: merchant.id, scopes: ['read'], expiresInSeconds });
    // Assess
    await expect(creating).rejects.toBeInstanceOf(InvalidExpiryError);
  });

  it("lists only the merchant's keys, revoked ones included, oldest first when it has several", async () => {
    // Prepare
    const owner = await createMerchant({ name: 'Lister' });
    const other = await createMerchant({ name: 'Other' });
    const first = await createApiKey({ merchantId: owner.id, scopes: ['read'] });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = await createApiKey({ merchantId: owner.id, scopes: ['write:payments'] });
    await createApiKey({ merchantId: other.id, scopes: ['read'] });
    await revokeApiKey(first.record.id);
    // Act
    const listed = await listApiKeys(owner.id);
    // Assess
    expect(listed.map((record) => record.id)).toEqual([first.record.id, second.record.id]);
    expect(listed[0]?.revoked_at).not.toBeNull();
    expect(JSON.stringify(listed)).not.toContain(first.key);
  });

  it('returns an empty list when the merchant has no keys', async () => {
    // Act
    const listed = await listApiKeys('merch_nobody');
    // Assess
    expect(listed).toEqual([]);
  });
});
