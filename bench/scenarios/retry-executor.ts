import { randomBytes, randomUUID } from 'node:crypto';
import { cpus } from 'node:os';
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { sandboxGateway } from '#adapters/payment-gateways/sandbox';
import { cardIdentityOf, emptyLedger, withAttempt } from '#core/card-caps';
import { customerBodyOf, type CustomerRecord, customerIdFor } from '#core/customers';
import { timeOrderedId } from '#core/ids';
import { attemptIdempotencyKey } from '#core/payment-gateway';
import { type PaymentRecord, paymentIdFor, recoveryIdFor } from '#core/payments';
import { cardLedgerPut } from '#data/card-ledger-repository';
import { documentClient, dynamo } from '#data/client';
import { customerFromItem, getCustomer, putCustomer } from '#data/customer-repository';
import { customerKeys, paymentKeys, retryKeys } from '#data/keys';
import { outboundEventItem } from '#data/outbound-event-repository';
import { customerAfter, foldTransitions, paymentItem, recordFailedPayment, timelineItem } from '#data/payment-repository';
import { attemptRetry, DEFAULT_LEASE_MS } from '#services/attempt-retry';
import { executeDueRetries } from '#jobs/execute-due-retries';
import { env } from '#shared/env';
import { deleteTable, ensureTable } from '#lib/local/dynamo-table';
import { counted, installCallTally, perUnit } from '#bench/call-tally';
import { batchWrite } from '#bench/fixtures';
import type { Scenario } from '#bench/scenario';

/**
 * The retry executor (functions/jobs/execute-due-retries.ts, attempt-retry.ts) with the sandbox
 * gateway, which answers processing_error retries with success at once.
 *
 * First, once per run, the throughput measurement the issue asks for: 1,000 and then 10,000
 * due retries (BENCH_RETRY_DUE=1000,10000 overrides), each in a table of its own so nothing else
 * is due, processed by the every-minute task until none is left; retries per second, DynamoDB
 * calls and capacity per attempt, and the ratio of the two run times (linear: ≤ 11).
 *
 * Then the usual two sides, one due retry each: the handler side is attemptRetry (claim, gateway,
 * resolve); the raw side is the DynamoDB calls that attempt needs, made directly with the
 * repositories' item builders: the gateway configuration, the payment and the card ledger read,
 * the claim transaction (payment, timeline entry, ledger), the sandbox's own GetItem and PutItem,
 * the payment and customer read again, and the resolving transaction (payment, timeline entry,
 * two outbound events, customer; the counters are the table-stream consumer's since issue 12). The merchant's quiet hours are cached
 * per process on both sides.
 */
const SIZES = (process.env.BENCH_RETRY_DUE ?? '1000,10000').split(',').map(Number);
/** Due payments seeded for each size's two sides (the bench takes 1,100 per side). */
const POOL = 2_400;

interface Template {
  readonly payment: PaymentRecord;
  readonly customer: CustomerRecord;
}

/** A payment of `merchantId` recorded by the real path, whose customer and payment shape the bulk ones copy. */
async function templateOf(merchantId: string, now: Date): Promise<Template> {
  const { payment } = await recordFailedPayment(
    {
      merchantId,
      customer: { email: `retry-template-${randomUUID()}@example.com`, name: 'Retry Bench' },
      psp: 'stripe',
      providerPaymentId: null,
      amount: 2500,
      currency: 'usd',
      declineCode: 'processing_error',
      declineCategory: 'soft_retry',
      declineSubcategory: 'processing_error',
      retryAllowed: true,
    },
    now,
  );
  const customer = await getCustomer(merchantId, payment.customer_id);
  if (customer === undefined) throw new Error('The template customer is missing');
  return { payment, customer };
}

/** `count` retrying payments due at `dueAt`, each of a customer (and so a card) of its own, written with BatchWriteItem in the repositories' item shapes. */
async function seedDue(template: Template, count: number, dueAt: Date): Promise<PaymentRecord[]> {
  const at = dueAt.toISOString();
  const payments: PaymentRecord[] = [];
  const items: Record<string, unknown>[] = [];
  for (let i = 0; i < count; i += 1) {
    const customer: CustomerRecord = {
      ...template.customer,
      id: customerIdFor(timeOrderedId(dueAt)),
      email: `retry-${randomBytes(8).toString('hex')}@example.com`,
      open_payments: 1,
      version: 0,
    };
    const body = timeOrderedId(dueAt);
    const payment: PaymentRecord = {
      ...template.payment,
      id: paymentIdFor(body),
      recovery_id: recoveryIdFor(body),
      customer_id: customer.id,
      customer_email: customer.email,
      card_identity: cardIdentityOf({ psp: 'stripe', customerId: customer.id }),
      status: 'retrying',
      next_retry_at: at,
      created_at: at,
      updated_at: at,
      state_history: [...template.payment.state_history.slice(0, 1), { status: 'retrying', at, reason: 'bench' }],
    };
    payments.push(payment);
    items.push(
      paymentItem(payment),
      ...putCustomer(undefined, customer, dueAt).flatMap((item) => (item.Put === undefined ? [] : [item.Put.Item as Record<string, unknown>])),
    );
  }
  await batchWrite(items.map((Item) => ({ PutRequest: { Item } })));
  return payments;
}

/** Processes every retry due at `runAt` with the every-minute task, run after run, until none is left. */
async function drainDue(runAt: Date, expected: number): Promise<{ runs: number; succeeded: number }> {
  let runs = 0;
  let succeeded = 0;
  for (;;) {
    const summary = (await executeDueRetries({ now: runAt, executionId: `bench-${runs}` })) as Record<string, number>;
    runs += 1;
    succeeded += summary.succeeded ?? 0;
    if ((summary.due ?? 0) === 0) break;
    if ((summary.due ?? 0) === (summary.failed ?? 0)) throw new Error(`Every due retry of run ${runs} failed: ${JSON.stringify(summary)}`);
  }
  if (succeeded !== expected) throw new Error(`The executor should recover ${expected} payments, recovered ${succeeded}`);
  return { runs, succeeded };
}

/** The throughput measurement: each size in a fresh table of its own. */
async function measureThroughput(merchantId: string): Promise<string[]> {
  const mutableEnv = env as { TABLE_NAME: string };
  const benchTable = mutableEnv.TABLE_NAME;
  const lines: string[] = [];
  const seconds: number[] = [];
  for (const size of SIZES) {
    const table = `recovery-bench-retries-${size}-${randomBytes(3).toString('hex')}`;
    await ensureTable(dynamo, table);
    mutableEnv.TABLE_NAME = table;
    try {
      const dueAt = new Date();
      const seeding = Date.now();
      const template = await templateOf(merchantId, dueAt);
      await seedDue(template, size - 1, dueAt);
      const seeded = (Date.now() - seeding) / 1000;
      const { result, seconds: took } = await counted(() => drainDue(new Date(dueAt.getTime() + 2 * 3_600_000), size));
      seconds.push(took);
      lines.push(
        `THROUGHPUT ${size} due: ${result.succeeded} retries (seeded in ${seeded.toFixed(1)} s) recovered by the every-minute task in ${result.runs} runs, ${took.toFixed(1)} s = ${(size / took).toFixed(0)} retries/s on ${cpus().length} cores`,
        `per attempt at ${size} due: ${perUnit(size)}`,
      );
    } finally {
      mutableEnv.TABLE_NAME = benchTable;
      await deleteTable(dynamo, table);
    }
  }
  if (seconds.length === 2) {
    const ratio = (seconds[1] as number) / (seconds[0] as number);
    lines.push(
      `run time ${SIZES[1]} / ${SIZES[0]} due: ${ratio.toFixed(2)} (linear is ${((SIZES[1] as number) / (SIZES[0] as number)).toFixed(0)}; target ≤ 11): ${ratio <= 11 ? 'PASS' : 'ABOVE TARGET'}`,
    );
  }
  process.stderr.write(`bench: ${lines.join('\nbench: ')}\n`);
  return lines;
}

const notes: string[] = [
  'handler = attemptRetry on one due payment (claim, sandbox gateway, resolve); raw = the DynamoDB calls of that attempt made directly (see the scenario file); each side takes a payment of its own from a pool seeded due',
];

export const scenario: Scenario = {
  name: 'retry executor: one due processing_error retry recovered through the sandbox gateway',
  notes,

  async prepare(fixture) {
    installCallTally();
    if (!notes.some((note) => note.startsWith('THROUGHPUT'))) notes.push(...(await measureThroughput(fixture.merchantId)));
    const dueAt = new Date();
    const runAt = new Date(dueAt.getTime() + 60_000);
    const template = await templateOf(fixture.merchantId, dueAt);
    const pool = await seedDue(template, POOL, dueAt);
    const take = (): PaymentRecord => {
      const payment = pool.pop();
      if (payment === undefined) throw new Error('The retry pool is empty: raise POOL');
      return payment;
    };
    const m = fixture.merchantId;
    const table = env.TABLE_NAME;
    const get = async (Key: { PK: string; SK: string }) => (await documentClient.send(new GetCommand({ TableName: table, Key, ConsistentRead: true }))).Item;

    return {
      async handler() {
        const payment = take();
        const result = await attemptRetry(m, payment.id, payment.psp, { now: runAt });
        if (result.kind !== 'attempted' || result.outcome !== 'succeeded')
          throw new Error(`The retry should succeed, got ${JSON.stringify(result).slice(0, 300)}`);
      },

      async raw() {
        const seeded = take();
        const body = seeded.id.slice(3);
        const at = runAt.toISOString();
        // Claim: gateway configuration, payment, card ledger; then payment + timeline + ledger.
        await documentClient.send(new GetCommand({ TableName: table, Key: retryKeys.gatewayConfig(m, seeded.psp) }));
        const before = (await get(paymentKeys.payment(m, body))) as unknown as PaymentRecord;
        await get(retryKeys.cardLedger(m, before.card_identity));
        const number = before.retry_count + 1;
        const attempt = {
          number,
          idempotency_key: attemptIdempotencyKey(before.id, number),
          gateway: 'sandbox',
          recorded_at: at,
          lease_until: new Date(runAt.getTime() + DEFAULT_LEASE_MS).toISOString(),
        };
        const claimed = foldTransitions(before, [{ type: 'start_attempt', attempt, reason: 'bench' }], runAt);
        const inFlight = { ...claimed.after, version: before.version + 1, updated_at: at };
        const ledger = withAttempt(emptyLedger(before.card_identity), { at, amount: before.amount, currency: before.currency });
        await documentClient.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Put: {
                  TableName: table,
                  Item: paymentItem(inFlight),
                  ConditionExpression: 'version = :version',
                  ExpressionAttributeValues: { ':version': before.version },
                },
              },
              ...claimed.timelines.map((entry) => timelineItem(inFlight, at, entry)),
              cardLedgerPut(m, before.customer_id, { ledger: emptyLedger(before.card_identity), version: undefined }, ledger),
            ],
          }),
        );
        // The sandbox gateway's own calls.
        await sandboxGateway.charge(
          {
            merchantId: m,
            paymentId: before.id,
            psp: before.psp,
            providerPaymentId: null,
            invoiceId: null,
            amount: before.amount,
            currency: before.currency,
            declineCode: before.decline_code,
            attemptNumber: number,
            idempotencyKey: attempt.idempotency_key,
          },
          undefined,
        );
        // Resolve: payment and customer read again; payment + timeline + events + customer (counters: the table-stream consumer).
        const current = (await get(paymentKeys.payment(m, body))) as unknown as PaymentRecord;
        const resolved = foldTransitions(
          current,
          [{ type: 'attempt_succeeded', providerChargeId: `sbx_ch_${attempt.idempotency_key}`, reason: 'bench' }],
          runAt,
        );
        const after = { ...resolved.after, version: current.version + 1, updated_at: at };
        const customer = customerFromItem((await get(customerKeys.customer(m, customerBodyOf(current.customer_id) ?? ''))) as Record<string, unknown>);
        const object = { payment_id: after.id, recovery_id: after.recovery_id, retry_number: number, gateway: 'sandbox' };
        await documentClient.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Put: {
                  TableName: table,
                  Item: paymentItem(after),
                  ConditionExpression: 'version = :version',
                  ExpressionAttributeValues: { ':version': current.version },
                },
              },
              ...resolved.timelines.map((entry) => timelineItem(after, at, entry)),
              outboundEventItem(m, after.customer_id, ['recovery.retry_attempted'], { ...object, outcome: 'succeeded' }, runAt),
              outboundEventItem(
                m,
                after.customer_id,
                ['payment.recovered', 'recovery.succeeded'],
                { ...object, amount: after.amount, currency: after.currency },
                runAt,
              ),
              ...putCustomer(customer, customerAfter(customer, current, after), runAt),
            ],
          }),
        );
      },
    };
  },
};
