/**
 * Auto-embedding (functions/consumers/embed-recoveries.ts), fed by DynamoDB Local's stream through
 * the local poller filtered to payment records, as its event source mapping is on AWS: recovered
 * and terminal payments embed themselves once, open ones do not, and erasing the customer removes
 * the vectors (those embedded from payments and those embed-event stored with the customer id).
 */
import { handler } from '#consumers/embed-recoveries';
import { eraseCustomer } from '#services/erase-customer';
import { embedRecovery, findSimilarRecoveries } from '#services/vectors';
import { newTenant } from '#test/fixtures/tenants';
import { LocalTableStream } from '#lib/local/table-stream';
import { EMBED_SOURCE_ENTITIES } from '#consumers/embed-recoveries';
import { HARD_DECLINE, moveThrough, seedPayment, seedPaymentThrough } from '#test/fixtures/payments';

const everything = { declineCode: 'insufficient_funds', declineCategory: 'soft_retry', amount: 4999, currency: 'usd', provider: 'stripe' } as const;

describe('embed-recoveries', () => {
  let stream: LocalTableStream;

  beforeAll(() => {
    stream = new LocalTableStream({
      endpoint: process.env.DYNAMODB_ENDPOINT as string,
      tableName: process.env.TABLE_NAME as string,
      handler,
      entities: [...EMBED_SOURCE_ENTITIES],
    });
  });

  afterAll(async () => {
    await stream.stop();
  });

  it('embeds a payment once it is recovered or terminal, and not while it is open', async () => {
    // Prepare
    const { merchant } = await newTenant();
    const open = await seedPayment(merchant.id);
    const recovered = await seedPaymentThrough(merchant.id, ['recover']);
    const terminal = await seedPaymentThrough(merchant.id, ['terminate'], HARD_DECLINE);

    // Act
    await stream.drain();
    const found = await findSimilarRecoveries(merchant.id, everything, 10);

    // Assess
    expect(found.map((match) => match.id).sort()).toEqual([recovered.id, terminal.id].sort());
    expect(found.find((match) => match.id === recovered.id)?.metadata).toEqual({
      outcome: 'recovered',
      strategy: 'provider',
      decline_code: 'insufficient_funds',
      customer_id: recovered.customer_id,
      failed_at: recovered.created_at,
    });
    expect(found.find((match) => match.id === terminal.id)?.metadata).toMatchObject({ outcome: 'failed', decline_code: 'expired_card' });
    expect(found.some((match) => match.id === open.id)).toBe(false);
  }, 30_000);

  it('embeds a payment recovered later, once, however often its records are read', async () => {
    // Prepare
    const { merchant } = await newTenant();
    const payment = await seedPayment(merchant.id);
    await stream.drain();
    expect(await findSimilarRecoveries(merchant.id, everything, 10)).toEqual([]);

    // Act
    await moveThrough(merchant.id, payment, ['recover']);
    await stream.drain();
    const again = new LocalTableStream({
      endpoint: process.env.DYNAMODB_ENDPOINT as string,
      tableName: process.env.TABLE_NAME as string,
      handler,
      entities: [...EMBED_SOURCE_ENTITIES],
    });
    // A second poller reads the whole stream again from its start: every record is delivered twice.
    await again.drain();
    await again.stop();
    const found = await findSimilarRecoveries(merchant.id, everything, 10);

    // Assess
    expect(found.map((match) => match.id)).toEqual([payment.id]);
  }, 30_000);

  it("erasing the customer removes the vectors of the customer's payments and of embed-event", async () => {
    // Prepare
    const { merchant } = await newTenant();
    const erased = await seedPaymentThrough(merchant.id, ['recover'], { customer: { email: 'erase-me@example.com', name: 'Erase Me' } });
    const kept = await seedPaymentThrough(merchant.id, ['recover'], { customer: { email: 'keep-me@example.com', name: 'Keep Me' } });
    await embedRecovery(merchant.id, 'inv_external_1', everything, {
      outcome: 'failed',
      strategy: 'none',
      decline_code: 'insufficient_funds',
      customer_id: erased.customer_id,
    });
    await stream.drain();
    expect(await findSimilarRecoveries(merchant.id, everything, 10)).toHaveLength(3);

    // Act
    await eraseCustomer(merchant.id, erased.customer_id);
    const rightAway = await findSimilarRecoveries(merchant.id, everything, 10);
    await stream.drain();
    const afterStream = await findSimilarRecoveries(merchant.id, everything, 10);

    // Assess
    expect(rightAway.map((match) => match.id)).toEqual([kept.id]);
    expect(afterStream.map((match) => match.id)).toEqual([kept.id]);
  }, 30_000);
});
