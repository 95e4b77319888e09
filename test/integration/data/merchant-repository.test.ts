import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { InvalidMerchantError } from '#core/merchants';
import { documentClient, dynamo } from '#data/client';
import { keys } from '#data/keys';
import { createMerchant, getMerchant, listMerchants } from '#data/merchant-repository';

const TableName = process.env.TABLE_NAME as string;

afterAll(() => dynamo.destroy());

describe('merchant repository', () => {
  it('creates a merchant with the default tier and limits when given only a name', async () => {
    // Act
    const merchant = await createMerchant({ name: 'Acme' });
    // Assess
    expect(merchant).toEqual({
      id: expect.stringMatching(/^merch_[0-9A-Za-z]{22}$/),
      name: 'Acme',
      plan_tier: 'engine',
      rate_limits: { read_per_minute: 100, write_per_minute: 100 },
      created_at: expect.any(String),
      updated_at: merchant.created_at,
    });
    expect(await getMerchant(merchant.id)).toEqual(merchant);
  });

  it('stores the item with its entity and listing keys when a merchant is created', async () => {
    // Prepare
    const merchant = await createMerchant({ name: 'Globex', plan_tier: 'command', rate_limits: { read_per_minute: 200, write_per_minute: 50 } });
    // Act
    const { Item } = await documentClient.send(new GetCommand({ TableName, Key: keys.merchant(merchant.id) }));
    // Assess
    expect(Item).toMatchObject({
      entity: 'merchant',
      GSI1PK: 'MERCHANTS',
      GSI1SK: `${merchant.created_at}#${merchant.id}`,
      plan_tier: 'command',
      rate_limits: { read_per_minute: 200, write_per_minute: 50 },
    });
  });

  it('returns undefined when the merchant does not exist', async () => {
    // Act
    const merchant = await getMerchant('merch_nobody');
    // Assess
    expect(merchant).toBeUndefined();
  });

  it('throws InvalidMerchantError and writes nothing when the name is blank', async () => {
    // Prepare
    const before = await listMerchants();
    // Act
    const creating = createMerchant({ name: '  ' });
    // Assess
    await expect(creating).rejects.toBeInstanceOf(InvalidMerchantError);
    await expect(creating).rejects.toMatchObject({ param: 'name', statusCode: 422 });
    expect(await listMerchants()).toHaveLength(before.length);
  });

  it('lists every merchant oldest first when several exist', async () => {
    // Prepare
    const first = await createMerchant({ name: 'First' });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = await createMerchant({ name: 'Second' });
    // Act
    const merchants = await listMerchants();
    // Assess
    const ids = merchants.map((merchant) => merchant.id);
    expect(ids).toEqual(expect.arrayContaining([first.id, second.id]));
    expect(ids.indexOf(first.id)).toBeLessThan(ids.indexOf(second.id));
    expect(merchants.find((merchant) => merchant.id === second.id)).toEqual(second);
  });
});
