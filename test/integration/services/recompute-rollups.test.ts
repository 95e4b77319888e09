/**
 * The hourly recompute of rollups (services/recompute-rollups.ts) on DynamoDB Local.
 */
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '#data/client';
import { ENTITY, type ItemKey, rollupKeys } from '#data/keys';
import { createMerchant } from '#data/merchant-repository';
import { confirmedMerchantRollups } from '#services/recompute-rollups';
import { env } from '#shared/env';

jest.setTimeout(60_000);

const DAY = '2026-11-20';

/** A stored PAY day item of `psp` counting `failed` payments that no source item stands for. */
async function strayItem(merchantId: string, psp: string, failed: number): Promise<ItemKey> {
  const key = rollupKeys.item(merchantId, 'PAY', 'D', DAY, [psp, 'soft_retry', '', 'usd']);
  await documentClient.send(
    new PutCommand({
      TableName: env.TABLE_NAME,
      Item: {
        ...key,
        entity: ENTITY.rollup,
        merchant_id: merchantId,
        bucket: DAY,
        dims: { psp, decline_category: 'soft_retry', decline_code: '', currency: 'usd' },
        failed_count: failed,
      },
    }),
  );
  return key;
}

describe('confirmedMerchantRollups', () => {
  it('reports only the drift still there on a second look, with its values then', async () => {
    // Prepare: two stray items; one is put right while the recompute waits (a change in flight)
    const merchantId = (await createMerchant({ name: 'Confirm drift' })).id;
    const lasting = await strayItem(merchantId, 'adyen', 2);
    const passing = await strayItem(merchantId, 'stripe', 1);
    // Act
    const confirming = confirmedMerchantRollups(merchantId, DAY, 1_500);
    await new Promise((done) => setTimeout(done, 500));
    await documentClient.send(new DeleteCommand({ TableName: env.TABLE_NAME, Key: passing }));
    const report = await confirming;
    const unconfirmed = await confirmedMerchantRollups(merchantId, DAY, 0);
    // Assess
    expect(report.drift).toEqual([
      {
        family: 'PAY',
        granularity: 'D',
        bucket: DAY,
        sk: lasting.SK,
        dims: { psp: 'adyen', decline_category: 'soft_retry', decline_code: '', currency: 'usd' },
        counter: 'failed_count',
        stored: 2,
        recomputed: 0,
        delta: 2,
      },
    ]);
    expect(unconfirmed.drift.map((drift) => drift.sk)).toEqual([lasting.SK]);
  });
});
