/**
 * Data of the bench table: the bench merchant, then other merchants as the table grows, each
 * with an API key (through the real repositories, so every item has its production shape) and
 * a few past rate-limit windows. The table can shrink back too, so that a measurement at N can
 * be taken both before and after the one at 10N. Imported after the environment is set (see stack.ts).
 */
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { hashApiKey } from '#core/api-keys';
import { createApiKey } from '#data/api-key-repository';
import { documentClient } from '#data/client';
import { ENTITY, type ItemKey, keys } from '#data/keys';
import { createMerchant } from '#data/merchant-repository';
import { recordFailedPayment } from '#data/payment-repository';
import type { PaymentRecord } from '#core/payments';
import { env } from '#shared/env';
import type { BenchFixture } from './scenario';

const BENCH_LIMIT_PER_MINUTE = 1_000_000;
const WINDOWS_PER_KEY = 5;
const CONCURRENCY = 8;

export type WriteRequest = { PutRequest: { Item: Record<string, unknown> } } | { DeleteRequest: { Key: ItemKey } };

export class BenchData {
  /** Every item of each merchant added after the bench merchant, in order of creation. */
  private readonly added: ItemKey[][] = [];

  private constructor(public fixture: BenchFixture) {}

  /** The merchant the scenarios call as, with limits the bench can never reach. */
  static async create(): Promise<BenchData> {
    const merchant = await createMerchant({
      name: 'Bench Merchant',
      rate_limits: { read_per_minute: BENCH_LIMIT_PER_MINUTE, write_per_minute: BENCH_LIMIT_PER_MINUTE },
    });
    const { key, record } = await createApiKey({ merchantId: merchant.id, scopes: ['admin'], mode: 'test' });
    await writeWindows(merchant.id, record.id);
    return new BenchData({
      merchantId: merchant.id,
      apiKey: key,
      apiKeyId: record.id,
      readPerMinute: BENCH_LIMIT_PER_MINUTE,
      writePerMinute: BENCH_LIMIT_PER_MINUTE,
      merchants: 1,
    });
  }

  /** Adds merchants, or deletes the last added, until the table holds `target` of them (the bench merchant included). */
  async resize(target: number): Promise<BenchFixture> {
    const count = Math.max(1, target) - 1;
    let next = this.added.length;
    const grow = async (): Promise<void> => {
      while (next < count) {
        const index = next++;
        const merchant = await createMerchant({ name: `Merchant ${index + 2}` });
        const { key, record } = await createApiKey({ merchantId: merchant.id, scopes: ['read', 'write'], mode: 'live' });
        const windows = await writeWindows(merchant.id, record.id);
        this.added[index] = [
          keys.merchant(merchant.id),
          keys.apiKey(merchant.id, record.id),
          keys.apiKeyByHash(hashApiKey(key)),
          keys.apiKeyById(record.id),
          ...windows,
        ];
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, grow));
    const removed = this.added.splice(count).flat();
    await batchWrite(removed.map((Key) => ({ DeleteRequest: { Key } })));
    this.fixture = { ...this.fixture, merchants: this.added.length + 1 };
    return this.fixture;
  }
}

/** Past read and write windows of a key, kept for an hour so that TTL does not thin the table mid-run. */
async function writeWindows(merchantId: string, keyId: string): Promise<ItemKey[]> {
  const nowSeconds = Math.floor(Date.now() / 1000);
  const current = nowSeconds - (nowSeconds % 60);
  const windows = Array.from({ length: WINDOWS_PER_KEY }, (_, i) => i + 1).flatMap((age) =>
    (['read', 'write'] as const).map((kind) => ({
      key: keys.rateLimitWindow(merchantId, `key:${keyId}:${kind}`, current - age * 60),
      count: 1 + ((age * 37) % 100),
    })),
  );
  await batchWrite(
    windows.map(({ key, count }) => ({
      PutRequest: { Item: { ...key, entity: ENTITY.rateLimitWindow, request_count: count, expires_at: nowSeconds + 3600 } },
    })),
  );
  return windows.map(({ key }) => key);
}

/** A merchant of its own with an admin key whose rate limits the bench never reaches (`merchants`: the table's count, for the fixture). */
export async function unlimitedMerchant(name: string, merchants: number): Promise<BenchFixture> {
  const merchant = await createMerchant({ name, rate_limits: { read_per_minute: BENCH_LIMIT_PER_MINUTE, write_per_minute: BENCH_LIMIT_PER_MINUTE } });
  const { key, record } = await createApiKey({ merchantId: merchant.id, scopes: ['admin'], mode: 'test' });
  return {
    merchantId: merchant.id,
    apiKey: key,
    apiKeyId: record.id,
    readPerMinute: BENCH_LIMIT_PER_MINUTE,
    writePerMinute: BENCH_LIMIT_PER_MINUTE,
    merchants,
  };
}

/** BatchWriteItem in batches of 25, retrying what comes back unprocessed, CONCURRENCY batches at a time. */
export async function batchWrite(requests: WriteRequest[]): Promise<void> {
  const send = async (): Promise<void> => {
    for (let batch = requests.splice(0, 25); batch.length > 0; batch = requests.splice(0, 25)) {
      while (batch.length > 0) {
        const { UnprocessedItems } = await documentClient.send(new BatchWriteCommand({ RequestItems: { [env.TABLE_NAME]: batch } }));
        batch = (UnprocessedItems?.[env.TABLE_NAME] ?? []) as WriteRequest[];
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, send));
}

/**
 * One failed card payment of the bench's usual shape (4999 usd, insufficient funds, Stripe) for a
 * customer of the merchant: the seed of the scenarios that need a customer with an open payment.
 */
export async function seedFailedPayment(
  merchantId: string,
  customer: { readonly email: string; readonly name: string; readonly provider_customer_id?: string },
  providerPaymentId: string,
): Promise<PaymentRecord> {
  const { payment } = await recordFailedPayment({
    merchantId,
    customer,
    psp: 'stripe',
    providerPaymentId,
    amount: 4999,
    currency: 'usd',
    declineCode: 'insufficient_funds',
    declineCategory: 'soft_retry',
    declineSubcategory: 'balance',
    retryAllowed: true,
  });
  return payment;
}
