import { randomBytes, randomUUID } from 'node:crypto';
import { cpus } from 'node:os';
import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { registerLocalQueueTransport } from '#adapters/queue-sender';
import { newCampaign } from '#core/campaigns/lifecycle';
import { type CampaignRecord, campaignBodyOf } from '#core/campaigns/types';
import { type CustomerRecord, customerBodyOf, customerIdFor } from '#core/customers';
import type { EnrollmentRecord } from '#core/enrollments';
import { timeOrderedId } from '#core/ids';
import type { IngestEvent } from '#core/ingest/ingest-event';
import { messageBodyOf } from '#core/messages';
import { type PaymentRecord, paymentBodyOf, paymentIdFor, recoveryIdFor } from '#core/payments';
import { dynamo, documentClient } from '#data/client';
import { changeCampaignStatus, createCampaign } from '#data/campaign-repository';
import { getCustomer, putCustomer } from '#data/customer-repository';
import { enrollmentItem, enrollmentWrite, findDueEnrollments } from '#data/enrollment-repository';
import { campaignKeys, customerKeys, enrollmentKeys, messageKeys, paymentKeys } from '#data/keys';
import { messagePut, newMessageRecord } from '#data/message-repository';
import { paymentItem, recordFailedPayment, timelineItem } from '#data/payment-repository';
import { advanceCampaignSteps } from '#jobs/advance-campaign-steps';
import { replayFailures } from '#api/campaigns/replay';
import { defaultTemplateFor } from '#core/campaigns/templates';
import { simulateCampaign } from '#core/campaigns/simulation';
import { advanceEnrollment } from '#services/campaign-steps';
import { ingestPaymentEvent } from '#services/ingest-payment-event';
import { env } from '#shared/env';
import { deleteTable, ensureTable } from '#lib/local/dynamo-table';
import { counted, installCallTally, perUnit, tally } from '#bench/call-tally';
import { batchWrite } from '#bench/fixtures';
import type { Scenario } from '#bench/scenario';

/**
 * The campaign engine (issue 11, performance):
 * 1. What enrolling adds to ingesting a failed payment: the ingest service run on new failures of
 *    a merchant without campaigns and of one with an active campaign that matches them; calls and
 *    capacity units per ingest, and their difference (target: at most 1 read and 1 write request).
 * 2. The hourly job's cost per due step at 1,000 and then 10,000 due enrollments
 *    (BENCH_CAMPAIGN_DUE=1000,10000 overrides), each in a table of its own, processed by
 *    `advance-campaign-steps` until none is due: calls and capacity per step, and the ratio of the
 *    two (target: at most 1.1).
 * 3. POST /campaigns/simulate's work (the replay of past failures through the matching rules and
 *    the steps) over 1,000 and 10,000 payments failed in the last 30 days (BENCH_SIMULATE_SIZES
 *    overrides), for a trigger that needs no customer facts (one Query of the time-ordered payment
 *    range) and one that does (plus BatchGetItem of the customers): items, calls and capacity
 *    units read, and their cost per payment at 10x (served from the existing indexes, no Scan).
 * Then the usual two sides, one due email step each: handler = advanceEnrollment; raw = the
 * DynamoDB calls that step needs made directly (claim, campaign, payment, customer, the advance
 * transaction).
 */
const SIZES = (process.env.BENCH_CAMPAIGN_DUE ?? '1000,10000').split(',').map(Number);
const SIMULATE_SIZES = (process.env.BENCH_SIMULATE_SIZES ?? '1000,10000').split(',').map(Number);
const INGESTS = 200;
const POOL = 2_400;

const FIELDS = {
  name: 'Bench campaign',
  trigger: 'payment_failed',
  filters: {},
  steps: [
    { action: 'email' as const, delay_hours: 0, template_id: 'tmpl_soft_decline_1' },
    { action: 'email' as const, delay_hours: 24, template_id: 'tmpl_soft_decline_2' },
  ],
  delay_hours: 0,
  start_hour: 0,
  end_hour: 23,
};

async function activeCampaign(merchantId: string): Promise<CampaignRecord> {
  const draft = await createCampaign(newCampaign(merchantId, FIELDS, new Date()));
  return changeCampaignStatus(merchantId, draft.id, 'activate');
}

/** Ingests `count` new failures of one known customer; per-ingest calls and capacity. */
async function ingestCost(merchantId: string, count: number): Promise<{ line: string; reads: number; writes: number; rcu: number; wcu: number }> {
  const email = `campaign-bench-${randomUUID()}@example.com`;
  const event = (id: string): IngestEvent => ({
    type: 'payment_failed',
    amount: 4999,
    currency: 'usd',
    customerEmail: email,
    declineCode: 'insufficient_funds',
    psp: 'stripe',
    providerPaymentId: id,
    metadata: {},
  });
  await ingestPaymentEvent(merchantId, event(`ch_${randomUUID()}`));
  await counted(async () => {
    for (let i = 0; i < count; i += 1) await ingestPaymentEvent(merchantId, event(`ch_${randomUUID()}`));
  });
  const of = (names: string[]) => names.reduce((sum, name) => sum + (tally.calls.get(name) ?? 0), 0) / count;
  return {
    line: perUnit(count),
    reads: of(['GetItemCommand', 'QueryCommand', 'BatchGetItemCommand']),
    writes: of(['PutItemCommand', 'UpdateItemCommand', 'TransactWriteItemsCommand', 'DeleteItemCommand']),
    rcu: tally.rcu / count,
    wcu: tally.wcu / count,
  };
}

interface Seed {
  readonly payment: PaymentRecord;
  readonly customer: CustomerRecord;
  readonly campaign: CampaignRecord;
}

async function seedTemplate(merchantId: string, now: Date): Promise<Seed> {
  const campaign = await activeCampaign(merchantId);
  const { payment } = await recordFailedPayment(
    {
      merchantId,
      customer: { email: `campaign-template-${randomUUID()}@example.com`, name: 'Campaign Bench' },
      psp: 'stripe',
      providerPaymentId: null,
      amount: 2500,
      currency: 'usd',
      declineCode: 'insufficient_funds',
      declineCategory: 'soft_retry',
      declineSubcategory: 'balance',
      retryAllowed: true,
    },
    now,
  );
  const customer = await getCustomer(merchantId, payment.customer_id);
  if (customer === undefined) throw new Error('The template customer is missing');
  return { payment, customer, campaign };
}

/** A copy of the template's payment, of a customer of its own, made at `at` (the items as the repositories write them). */
function paymentOfNewCustomer(seed: Seed, at: Date, emailPrefix: string, overrides: Partial<PaymentRecord> = {}) {
  const customer: CustomerRecord = {
    ...seed.customer,
    id: customerIdFor(timeOrderedId(at)),
    email: `${emailPrefix}-${randomBytes(8).toString('hex')}@example.com`,
    version: 0,
  };
  const body = timeOrderedId(at);
  const payment: PaymentRecord = {
    ...seed.payment,
    id: paymentIdFor(body),
    recovery_id: recoveryIdFor(body),
    customer_id: customer.id,
    customer_email: customer.email,
    ...overrides,
  };
  const customerItems = putCustomer(undefined, customer, at).flatMap((item) => (item.Put === undefined ? [] : [item.Put.Item as Record<string, unknown>]));
  return { customer, payment, items: [paymentItem(payment), ...customerItems] };
}

/** `count` payments, each of a customer of its own, enrolled with their first step due at `dueAt` (BatchWriteItem, the repositories' item shapes). */
async function seedDue(seed: Seed, count: number, dueAt: Date): Promise<EnrollmentRecord[]> {
  const at = dueAt.toISOString();
  const items: Record<string, unknown>[] = [];
  const enrollments: EnrollmentRecord[] = [];
  for (let i = 0; i < count; i += 1) {
    const { customer, payment, items: written } = paymentOfNewCustomer(seed, dueAt, 'campaign', { next_retry_at: null, status: 'pending' });
    const enrollment: EnrollmentRecord = {
      merchant_id: payment.merchant_id,
      campaign_id: seed.campaign.id,
      payment_id: payment.id,
      recovery_id: payment.recovery_id,
      customer_id: customer.id,
      status: 'active',
      step_index: 0,
      next_step_at: at,
      total_steps: seed.campaign.steps.length,
      retries_run: 0,
      enrolled_at: at,
      ended_at: null,
      end_reason: null,
      steps: [],
      version: 1,
    };
    enrollments.push(enrollment);
    items.push(...written, enrollmentItem(enrollment));
  }
  await batchWrite(items.map((Item) => ({ PutRequest: { Item } })));
  return enrollments;
}

/** Runs the hourly task at `runAt` until no step is due; the steps it ran. */
async function drainSteps(runAt: Date): Promise<{ runs: number; ran: number }> {
  let runs = 0;
  let ran = 0;
  for (;;) {
    const summary = (await advanceCampaignSteps({ now: runAt, executionId: `bench-${runs}` })) as Record<string, number>;
    runs += 1;
    ran += summary.ran ?? 0;
    if ((summary.due ?? 0) === 0) return { runs, ran };
    if ((summary.due ?? 0) === (summary.failed ?? 0)) throw new Error(`Every due step of run ${runs} failed: ${JSON.stringify(summary)}`);
  }
}

async function measure(merchantId: string): Promise<string[]> {
  const lines: string[] = [];
  // 1. Ingest with and without an active campaign, in the bench table.
  const plain = await ingestCost(merchantId, INGESTS);
  const withCampaignMerchant = `${merchantId}-campaign`;
  await activeCampaign(withCampaignMerchant);
  const enrolled = await ingestCost(withCampaignMerchant, INGESTS);
  const extraReads = enrolled.reads - plain.reads;
  const extraWrites = enrolled.writes - plain.writes;
  lines.push(
    `INGEST payment_failed, no active campaign (1 GetItem of the empty index): ${plain.line}`,
    `INGEST payment_failed, an active campaign that matches: ${enrolled.line}`,
    // Both read the active-campaign index (1 GetItem): that read is the engine's whole cost on a
    // merchant without campaigns, so against ingest before the engine "with" adds it + the difference.
    `enrolling adds ${(extraReads + 1).toFixed(2)} read (the index GetItem, paid with or without a campaign) and ${extraWrites.toFixed(2)} write requests per ingest to ingest before the engine (target ≤ 1 / ≤ 1: ${extraReads + 1 <= 1 && extraWrites <= 1 ? 'PASS' : 'ABOVE TARGET'}); with vs without a campaign: RCU +${(enrolled.rcu - plain.rcu).toFixed(2)}, WCU +${(enrolled.wcu - plain.wcu).toFixed(2)} (one TransactWriteItems: the enrollment's conditional put and the campaign's stats ADD, billed as transactional writes of the items and their index entries)`,
  );
  // 2. The hourly job at two sizes.
  const mutableEnv = env as { TABLE_NAME: string };
  const benchTable = mutableEnv.TABLE_NAME;
  const perStep: number[] = [];
  const perStepSeconds: number[] = [];
  for (const size of SIZES) {
    const table = `recovery-bench-campaign-${size}-${randomBytes(3).toString('hex')}`;
    await ensureTable(dynamo, table);
    mutableEnv.TABLE_NAME = table;
    try {
      const dueAt = new Date();
      const seed = await seedTemplate(merchantId, dueAt);
      await seedDue(seed, size, dueAt);
      const { result, seconds } = await counted(() => drainSteps(new Date(dueAt.getTime() + 60_000)));
      if (result.ran !== size) throw new Error(`The job should run ${size} steps, ran ${result.ran}`);
      perStep.push((tally.rcu + tally.wcu) / size);
      perStepSeconds.push(seconds / size);
      lines.push(
        `STEPS ${size} due: run in ${result.runs} runs, ${seconds.toFixed(1)} s = ${(size / seconds).toFixed(0)} steps/s on ${cpus().length} cores`,
        `per step at ${size} due: ${perUnit(size)}`,
      );
    } finally {
      mutableEnv.TABLE_NAME = benchTable;
      await deleteTable(dynamo, table);
    }
  }
  if (perStep.length === 2) {
    const ratio = (perStep[1] as number) / (perStep[0] as number);
    const timeRatio = (perStepSeconds[1] as number) / (perStepSeconds[0] as number);
    lines.push(
      `cost per due step (RCU + WCU) ${SIZES[1]} / ${SIZES[0]} due: ${ratio.toFixed(3)} (target ≤ 1.1): ${ratio <= 1.1 ? 'PASS' : 'ABOVE TARGET'}; time per step ratio ${timeRatio.toFixed(2)}`,
    );
  }
  lines.push(...(await measureSimulation(merchantId)));
  process.stderr.write(`bench: ${lines.join('\nbench: ')}\n`);
  return lines;
}

/** `count` failed payments of the template's merchant, each of a customer of its own, spread over the last 29 days (BatchWriteItem). */
async function seedPastFailures(seed: Seed, count: number, now: Date): Promise<void> {
  const items: Record<string, unknown>[] = [];
  for (let i = 0; i < count; i += 1) {
    const at = new Date(now.getTime() - Math.floor(Math.random() * 29 * 86_400_000));
    items.push(...paymentOfNewCustomer(seed, at, 'past', { created_at: at.toISOString(), updated_at: at.toISOString() }).items);
  }
  await batchWrite(items.map((Item) => ({ PutRequest: { Item } })));
}

/** 3. The simulation's reads and capacity at each size, in a table of its own per size. */
async function measureSimulation(merchantId: string): Promise<string[]> {
  const lines: string[] = [];
  const mutableEnv = env as { TABLE_NAME: string };
  const benchTable = mutableEnv.TABLE_NAME;
  const perPayment = new Map<string, number[]>();
  for (const size of SIMULATE_SIZES) {
    const table = `recovery-bench-simulate-${size}-${randomBytes(3).toString('hex')}`;
    await ensureTable(dynamo, table);
    mutableEnv.TABLE_NAME = table;
    try {
      const now = new Date();
      const seed = await seedTemplate(merchantId, now);
      await seedPastFailures(seed, size, now);
      for (const trigger of ['payment_failed', 'repeated_failure'] as const) {
        const plan = { trigger, filters: {}, steps: defaultTemplateFor(trigger).steps, delay_hours: 0, stop_on_recovery: true };
        const { result, seconds } = await counted(async () => {
          const replay = await replayFailures(merchantId, plan, [], {
            since: new Date(now.getTime() - 30 * 86_400_000),
            until: new Date(now.getTime() + 60_000),
          });
          return { replay, outcome: simulateCampaign(plan, replay.replayed, now) };
        });
        const read = result.replay.items_read;
        if (read.payments < size) throw new Error(`The simulation should read the ${size} past payments, read ${read.payments}`);
        perPayment.set(trigger, [...(perPayment.get(trigger) ?? []), tally.rcu / size]);
        lines.push(
          `SIMULATE ${trigger} over ${size} past failures: ${read.payments} payments and ${read.customers} customers read in ${seconds.toFixed(2)} s, would enroll ${result.outcome.would_enroll}; ${perUnit(1)}`,
        );
      }
    } finally {
      mutableEnv.TABLE_NAME = benchTable;
      await deleteTable(dynamo, table);
    }
  }
  for (const [trigger, costs] of perPayment) {
    if (costs.length === 2)
      lines.push(
        `simulate ${trigger}: RCU per past payment ${SIMULATE_SIZES[1]} / ${SIMULATE_SIZES[0]}: ${((costs[1] as number) / (costs[0] as number)).toFixed(3)} (linear in the payments read, no Scan)`,
      );
  }
  return lines;
}

const notes: string[] = [
  'handler = advanceEnrollment on one due email step (claim, campaign, payment, customer, quiet hours cached, one transaction, enqueue, mark queued); raw = the same DynamoDB calls made directly with the repositories’ item builders; each side takes an enrollment of its own from a pool seeded due',
];

export const scenario: Scenario = {
  name: 'campaign engine: one due email step advanced by the hourly job',
  notes,

  async prepare(fixture) {
    installCallTally();
    // The notifications queue is not what is measured: a transport that only accepts.
    registerLocalQueueTransport({ send: () => randomUUID() });
    if (!notes.some((note) => note.startsWith('INGEST'))) notes.push(...(await measure(fixture.merchantId)));
    const dueAt = new Date();
    const runAt = new Date(dueAt.getTime() + 60_000);
    const seed = await seedTemplate(fixture.merchantId, dueAt);
    const pool = await seedDue(seed, POOL, dueAt);
    const take = (): EnrollmentRecord => {
      const enrollment = pool.pop();
      if (enrollment === undefined) throw new Error('The enrollment pool is empty: raise POOL');
      return enrollment;
    };
    const table = env.TABLE_NAME;
    const m = fixture.merchantId;
    const get = async (Key: { PK: string; SK: string }) => (await documentClient.send(new GetCommand({ TableName: table, Key, ConsistentRead: true }))).Item;
    // Reads the due index once so both sides start from an entry the job would have found.
    await findDueEnrollments(runAt, 1);

    return {
      async handler() {
        const e = take();
        const outcome = await advanceEnrollment(
          { merchantId: m, body: paymentBodyOf(e.payment_id as string) as string, dueAt: e.next_step_at as string, stepIndex: 0 },
          runAt,
        );
        if (outcome.kind !== 'ran') throw new Error(`The step should run, got ${JSON.stringify(outcome)}`);
      },

      async raw() {
        const e = take();
        const body = paymentBodyOf(e.payment_id as string) as string;
        const lease = new Date(runAt.getTime() + 600_000).toISOString();
        const due = enrollmentKeys.due(m, body, lease);
        const claimed = (
          await documentClient.send(
            new UpdateCommand({
              TableName: table,
              Key: enrollmentKeys.enrollment(m, body),
              UpdateExpression: 'SET next_step_at = :lease, GSI4PK = :pk, GSI4SK = :sk, version = version + :one',
              ConditionExpression: '#status = :active AND step_index = :index AND next_step_at = :due',
              ExpressionAttributeNames: { '#status': 'status' },
              ExpressionAttributeValues: {
                ':lease': lease,
                ':pk': due.GSI4PK,
                ':sk': due.GSI4SK,
                ':one': 1,
                ':active': 'active',
                ':index': 0,
                ':due': e.next_step_at,
              },
              ReturnValues: 'ALL_NEW',
            }),
          )
        ).Attributes as unknown as EnrollmentRecord;
        await get(campaignKeys.campaign(m, campaignBodyOf(seed.campaign.id) as string));
        const payment = (await get(paymentKeys.payment(m, body))) as unknown as PaymentRecord;
        await get(customerKeys.customer(m, customerBodyOf(e.customer_id) as string));
        const at = runAt.toISOString();
        const message = newMessageRecord(
          {
            merchantId: m,
            customerId: e.customer_id,
            paymentId: e.payment_id,
            recoveryId: e.recovery_id,
            channel: 'email',
            purpose: 'campaign',
            to: payment.customer_email,
            templateId: 'tmpl_soft_decline_1',
            campaignId: e.campaign_id,
            stepIndex: 0,
            scheduledAt: runAt,
          },
          runAt,
        );
        const after: EnrollmentRecord = {
          ...claimed,
          step_index: 1,
          next_step_at: new Date(runAt.getTime() + 24 * 3_600_000).toISOString(),
          steps: [{ index: 0, action: 'email', at, outcome: 'message_queued', message_id: message.id }],
        };
        await documentClient.send(
          new TransactWriteCommand({
            TransactItems: [
              enrollmentWrite(claimed, after),
              {
                Update: {
                  TableName: table,
                  Key: paymentKeys.payment(m, body),
                  UpdateExpression: 'SET updated_at = :at, version = :next',
                  ConditionExpression: 'version = :version',
                  ExpressionAttributeValues: { ':at': at, ':next': payment.version + 1, ':version': payment.version },
                },
              },
              timelineItem({ ...payment, version: payment.version + 1 }, at, {
                type: 'campaign_step',
                detail: 'Campaign step 1 of 2 (email): message_queued',
                details: { campaign_id: e.campaign_id, step: 1, step_index: 0, action: 'email', outcome: 'message_queued', message_id: message.id },
              }),
              messagePut(message),
            ],
          }),
        );
        await documentClient.send(
          new UpdateCommand({
            TableName: table,
            Key: messageKeys.message(m, messageBodyOf(message.id) as string),
            UpdateExpression: 'SET #status = :queued, updated_at = :now REMOVE GSI4PK, GSI4SK',
            ConditionExpression: '#status = :scheduled',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: { ':queued': 'queued', ':scheduled': 'scheduled', ':now': at },
          }),
        );
      },
    };
  },
};
