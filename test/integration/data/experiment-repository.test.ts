import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { newExperiment } from '#core/experiments/experiment';
import { documentClient } from '#data/client';
import { assignCustomer, putExperiment, readVariantCounts, recordConversions } from '#data/experiment-repository';
import { experimentKeys, queries } from '#data/keys';
import { env } from '#shared/env';
import { drainTableStream } from '#test/fixtures/table-stream';

// 1,000 assignments written and applied by the stream consumer: tens of seconds on a busy machine.
jest.setTimeout(180_000);

const merchant = (): string => `merch_xp${Math.random().toString(36).slice(2, 10)}`;
const NOW = new Date('2026-11-20T12:00:00.000Z');

async function assignMany(experiment: Parameters<typeof assignCustomer>[0], from: number, to: number): Promise<void> {
  for (let i = from; i < to; i += 25) {
    await Promise.all(Array.from({ length: Math.min(25, to - i) }, (_, j) => assignCustomer(experiment, `cust_${i + j}`, NOW)));
  }
}

/** What reading the results costs: the items the Query examines and the capacity it consumes. */
async function resultsReadCost(merchantId: string, body: string): Promise<{ scanned: number; capacity: number }> {
  const answer = await documentClient.send(
    new QueryCommand({
      TableName: env.TABLE_NAME,
      ...queries.partitionPrefix(experimentKeys.variantCountersPrefix(merchantId, body)),
      ReturnConsumedCapacity: 'TOTAL',
    }),
  );
  return { scanned: answer.ScannedCount ?? -1, capacity: answer.ConsumedCapacity?.CapacityUnits ?? -1 };
}

describe('experiment repository', () => {
  it('counts each customer once, converted once, and reads results at the same cost at 100 and 1,000 assignments', async () => {
    // Prepare
    const merchantId = merchant();
    const experiment = await putExperiment(
      newExperiment({ merchantId, name: 'Cost', kind: 'retry_timing', settings: [{}, { delay_hours: 6 }], source: { type: 'cli', id: null } }, NOW),
    );
    const body = experiment.id.slice(3);
    await assignMany(experiment, 0, 100);
    await assignMany(experiment, 0, 10);
    await recordConversions(merchantId, 'cust_1', NOW);
    await recordConversions(merchantId, 'cust_1', NOW);
    await drainTableStream();
    const atHundred = await resultsReadCost(merchantId, body);
    const countsAtHundred = await readVariantCounts(experiment);
    // Act
    await assignMany(experiment, 100, 1000);
    await drainTableStream();
    const atThousand = await resultsReadCost(merchantId, body);
    const countsAtThousand = await readVariantCounts(experiment);
    // Assess
    const total = (counts: typeof countsAtHundred) => Object.values(counts).reduce((sum, c) => sum + c.exposures, 0);
    const conversions = (counts: typeof countsAtHundred) => Object.values(counts).reduce((sum, c) => sum + c.conversions, 0);
    expect(total(countsAtHundred)).toBe(100);
    expect(conversions(countsAtHundred)).toBe(1);
    expect(total(countsAtThousand)).toBe(1000);
    expect(atHundred.scanned).toBe(2);
    expect(atThousand).toEqual(atHundred);
  });

  it('does not convert a customer who was never assigned', async () => {
    // Prepare
    const merchantId = merchant();
    await putExperiment(
      newExperiment(
        { merchantId, name: 'x', kind: 'channel', settings: [{ channels: ['email'] }, { channels: ['sms'] }], source: { type: 'cli', id: null } },
        NOW,
      ),
    );
    // Act
    const counted = await recordConversions(merchantId, 'cust_stranger', NOW);
    // Assess
    expect(counted).toEqual([]);
  });
});
