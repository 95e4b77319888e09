import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sandboxChargesOf } from '#data/sandbox-charge-repository';
import { INGEST_LEASE_SECONDS } from '#data/ingest-events';
import { ENTITY } from '#data/keys';
import { call } from '#test/fixtures/http';
import { newTenant, type Tenant, UNLIMITED } from '#test/fixtures/tenants';
import type { SuiteContext } from './context';
import { type Figure, firstOf } from './figures';
import { serveOnLoopback } from './loopback';
import { acceptStripe, distinctStripeFailure } from './provider-events';
import { ingestFailure, unique } from './seed';
import { scanTable } from './table';

type Mode = 'retries' | 'inbound' | 'dispatch';

/** Items per scenario, and the acknowledged writes after which each run before the last is killed. */
const PLAN = {
  short: { items: 12, kills: { retries: [9], inbound: [9], dispatch: [9] } },
  // Each run counts its own writes and has less left to do. The dispatcher writes least (a mark per
  // event, then the delivery log), so its first kill comes while it is still marking.
  full: { items: 40, kills: { retries: [57, 31, 9], inbound: [57, 31, 9], dispatch: [23, 31, 9] } },
} as const;

const DAY_MS = 86_400_000;
const WORKER = join(__dirname, 'crash-worker.ts');

/** Runs the worker to its end, or to its SIGKILL; whether it was killed. */
function runWorker(mode: Mode, journal: string, env: Record<string, string>): Promise<{ killed: boolean; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', WORKER, mode, journal], {
      env: { ...process.env, LOG_LEVEL: process.env.CRASH_LOG_LEVEL ?? 'silent', ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (signal === 'SIGKILL') resolve({ killed: true, stderr });
      else if (code === 0) resolve({ killed: false, stderr });
      else reject(new Error(`crash worker ${mode} exited ${code ?? signal}: ${stderr.slice(-800)}`));
    });
  });
}

interface KillPlan {
  readonly kills: readonly number[];
  /** The environment of every run. */
  readonly env?: Readonly<Record<string, string>>;
  /** What the run to the end adds to it. */
  readonly restartEnv?: Readonly<Record<string, string>>;
  /** Messages waiting in the worker's queues before the first run (journal lines). */
  readonly waiting?: ReadonlyArray<{ readonly queue: string; readonly body: string }>;
  /** How long after each kill the next run starts. */
  readonly pauseMs?: number;
}

/** Each planned kill, then a run to the end, over one queue journal: the kills that really happened mid-batch. */
async function killAndRestart(mode: Mode, plan: KillPlan): Promise<number> {
  const folder = mkdtempSync(join(tmpdir(), 'reliability-crash-'));
  const journal = join(folder, 'queues.jsonl');
  try {
    writeFileSync(
      journal,
      (plan.waiting ?? []).map(({ queue, body }, index) => `${JSON.stringify({ sent: { id: `waiting-${index}`, queue, body } })}\n`).join(''),
    );
    let killed = 0;
    for (const after of plan.kills) {
      if ((await runWorker(mode, journal, { ...plan.env, CRASH_AFTER_WRITES: String(after) })).killed) killed += 1;
      if (plan.pauseMs !== undefined) await new Promise((resolve) => setTimeout(resolve, plan.pauseMs));
    }
    await runWorker(mode, journal, { ...plan.env, ...plan.restartEnv, CRASH_AFTER_WRITES: '0' });
    return killed;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** The tenant's outbound events (the outbox) by type, with the id of the object each is about. */
async function outboxOf(merchantId: string): Promise<Array<{ id: string; types: string[]; objectId: string }>> {
  const items = [...(await scanTable()).values()].map((value) => JSON.parse(value) as Record<string, unknown>);
  return items
    .filter((item) => item.entity === ENTITY.outboundEvent && item.merchant_id === merchantId)
    .map((item) => {
      const object = (item.data as { object?: Record<string, unknown> }).object ?? {};
      const objectId = object.id ?? object.payment_event_id ?? object.payment_id ?? object.recovery_id ?? JSON.stringify(object);
      return { id: String(item.id), types: item.types as string[], objectId: String(objectId) };
    });
}

const duplicatesOf = (values: readonly string[]): string[] => values.filter((value, index) => values.indexOf(value) !== index);

/**
 * The retry executor: payments whose first retry succeeds (the sandbox's processing_error), all
 * due; the executor killed after k writes, then run again after the leases expired. Charged twice:
 * a payment with more than one succeeded sandbox charge. Lost: a payment not recovered. Applied
 * twice: a payment announced recovered more than once.
 */
async function retries(context: SuiteContext, items: number, kills: readonly number[]): Promise<Figure[]> {
  const tenant = await newTenant(['admin'], UNLIMITED);
  const payments: string[] = [];
  for (let index = 0; index < items; index += 1) {
    const made = await ingestFailure(context, tenant.key, `${unique('retry')}@reliability.test`, { decline_code: 'processing_error' });
    payments.push(made.payment_event_id);
  }
  const runAt = Date.now() + 30 * DAY_MS;
  // The restart comes a day later, after the killed runs' leases (5 minutes) have expired.
  const killed = await killAndRestart('retries', { kills, env: { CRASH_RUN_AT: String(runAt) }, restartEnv: { CRASH_RUN_AT: String(runAt + DAY_MS) } });
  const doubleCharged: string[] = [];
  const lost: string[] = [];
  for (const id of payments) {
    const charges = await sandboxChargesOf(tenant.merchant.id, id);
    if (charges.filter((charge) => charge.outcome?.status === 'succeeded').length > 1) doubleCharged.push(id);
    const payment = await call<{ data: { status: string } }>(`${context.apiUrl}/payments/${id}`, { key: tenant.key });
    if (payment.body.data.status !== 'recovered') lost.push(`${id} ${payment.body.data.status}`);
  }
  const recoveredNotices = (await outboxOf(tenant.merchant.id)).filter((event) => event.types.includes('payment.recovered')).map((event) => event.objectId);
  const twice = duplicatesOf(recoveredNotices);
  const detail = `${items} payments, ${killed}/${kills.length} runs killed mid-batch`;
  return [
    {
      area: 'crash',
      name: 'retry executor: payments charged twice',
      value: doubleCharged.length,
      rule: 'eq',
      target: 0,
      detail: `${detail}${firstOf(doubleCharged)}`,
    },
    { area: 'crash', name: 'retry executor: retries lost', value: lost.length, rule: 'eq', target: 0, detail: firstOf(lost) },
    { area: 'crash', name: 'retry executor: recoveries applied twice', value: twice.length, rule: 'eq', target: 0, detail: firstOf(twice) },
    {
      area: 'crash',
      name: 'retry executor: runs killed mid-batch',
      value: killed,
      rule: 'min',
      target: 1,
      detail: `of ${kills.length} planned (a run may finish before its k-th write)`,
    },
  ];
}

/**
 * The inbound consumer: distinct signed Stripe failures received over HTTP; their queue messages
 * handed to the consumer in a worker killed after k writes, then redelivered to a new one. Lost: a
 * failure with no payment. Applied twice: a failure stored as two payments, or announced twice.
 */
async function inbound(context: SuiteContext, items: number, kills: readonly number[]): Promise<Figure[]> {
  const tenant = await newTenant(['admin'], UNLIMITED);
  await acceptStripe(tenant.merchant.id);
  const intents: string[] = [];
  for (let index = 0; index < items; index += 1) {
    const { delivery, paymentIntent } = distinctStripeFailure();
    const answer = await call(`${context.origin}/stripe/${tenant.merchant.id}`, { method: 'POST', rawBody: delivery.body, headers: delivery.headers });
    if (answer.status !== 200) throw new Error(`a delivery answered ${answer.status}: ${answer.text}`);
    intents.push(paymentIntent);
  }
  // The messages wait in this process's queue (no background pollers): the worker is their consumer.
  const waiting = context.stack.runtime.queues.waiting('inbound-webhooks').map((message) => message.body);
  // SQS redelivers an unacknowledged message after the queue's visibility timeout (60 s), by when
  // the killed consumer's ingest claims (30 s leases) have run out: each restart waits that long.
  const killed = await killAndRestart('inbound', {
    kills,
    waiting: waiting.map((body) => ({ queue: 'inbound-webhooks', body })),
    pauseMs: (INGEST_LEASE_SECONDS + 1) * 1000,
  });
  const listed = await call<{ data: Array<{ id: string; provider_payment_id: string | null }> }>(`${context.apiUrl}/payments?per_page=100`, {
    key: tenant.key,
  });
  const providerIds = listed.body.data.map((payment) => payment.provider_payment_id ?? '');
  const lost = intents.filter((intent) => !providerIds.includes(intent));
  const storedTwice = duplicatesOf(providerIds);
  const announcedTwice = duplicatesOf(
    (await outboxOf(tenant.merchant.id)).filter((event) => event.types.includes('payment.failed')).map((event) => event.objectId),
  );
  return [
    {
      area: 'crash',
      name: 'inbound consumer: events lost',
      value: lost.length,
      rule: 'eq',
      target: 0,
      detail: `${items} deliveries, ${listed.body.data.length} payments, ${killed}/${kills.length} runs killed mid-batch${firstOf(lost)}`,
    },
    {
      area: 'crash',
      name: 'inbound consumer: events applied twice',
      value: storedTwice.length + announcedTwice.length,
      rule: 'eq',
      target: 0,
      detail: firstOf([...storedTwice, ...announcedTwice]),
    },
    {
      area: 'crash',
      name: 'inbound consumer: runs killed mid-batch',
      value: killed,
      rule: 'min',
      target: 1,
      detail: `of ${kills.length} planned (a run may finish before its k-th write)`,
    },
  ];
}

/** A webhook receiver on loopback: every delivery's `webhook-id` and event id. */
async function receiver(): Promise<{ url: string; received: Array<{ webhookId: string; eventId: string }>; close: () => Promise<void> }> {
  const received: Array<{ webhookId: string; eventId: string }> = [];
  const eventIdOf = (body: string): string => {
    try {
      return String((JSON.parse(body) as { id?: unknown }).id);
    } catch {
      return '';
    }
  };
  const server = await serveOnLoopback((request, body, response) => {
    received.push({ webhookId: String(request.headers['webhook-id']), eventId: eventIdOf(body) });
    response.writeHead(200).end();
  });
  return { url: `${server.origin}/hook`, received, close: server.close };
}

/**
 * The outbound dispatcher: failed payments of a merchant with a webhook endpoint, so each writes
 * an outbound event; the stream's dispatcher and the delivery consumer run in a worker killed after
 * k writes, then a new one from the stream's start. Lost: an event the endpoint never received.
 * Applied twice: an event received under two `webhook-id`s (a receiver that deduplicates by
 * webhook-id, as Standard Webhooks asks, would apply it twice); the same webhook-id received again
 * is at-least-once delivery, counted in the detail.
 */
async function dispatch(context: SuiteContext, items: number, kills: readonly number[]): Promise<Figure[]> {
  const tenant: Tenant = await newTenant(['admin'], UNLIMITED);
  const target = await receiver();
  try {
    process.env.WEBHOOK_ALLOW_LOOPBACK = 'true';
    const endpoint = await call(`${context.apiUrl}/webhooks/endpoints`, {
      method: 'POST',
      key: tenant.key,
      body: { url: target.url, events: ['payment.failed'] },
    });
    if (endpoint.status !== 201) throw new Error(`the crash receiver was refused: ${endpoint.text}`);
    for (let index = 0; index < items; index += 1) await ingestFailure(context, tenant.key, `${unique('dispatch')}@reliability.test`);
    const killed = await killAndRestart('dispatch', { kills, env: { WEBHOOK_ALLOW_LOOPBACK: 'true' } });
    const events = (await outboxOf(tenant.merchant.id)).filter((event) => event.types.includes('payment.failed')).map((event) => event.id);
    const lost = events.filter((id) => !target.received.some((delivery) => delivery.eventId === id));
    const twice = events.filter((id) => new Set(target.received.filter((delivery) => delivery.eventId === id).map((delivery) => delivery.webhookId)).size > 1);
    const redelivered = target.received.length - new Set(target.received.map((delivery) => delivery.webhookId)).size;
    return [
      {
        area: 'crash',
        name: 'outbound dispatcher: events lost',
        value: lost.length,
        rule: 'eq',
        target: 0,
        detail: `${events.length} events, ${target.received.length} deliveries (${redelivered} repeated webhook-ids), ${killed}/${kills.length} runs killed mid-batch${firstOf(lost)}`,
      },
      { area: 'crash', name: 'outbound dispatcher: events applied twice', value: twice.length, rule: 'eq', target: 0, detail: firstOf(twice) },
      {
        area: 'crash',
        name: 'outbound dispatcher: runs killed mid-batch',
        value: killed,
        rule: 'min',
        target: 1,
        detail: `of ${kills.length} planned (a run may finish before its k-th write)`,
      },
    ];
  } finally {
    process.env.WEBHOOK_ALLOW_LOOPBACK = 'false';
    await target.close();
  }
}

/**
 * Crash injection (issue 17): the retry executor, the inbound consumer and the outbound
 * dispatcher, each run in a child process over the stack's DynamoDB Local, SIGKILLed after its
 * k-th acknowledged write (reliability/crash-worker.ts), then restarted on the same data.
 */
export async function crash(context: SuiteContext): Promise<Figure[]> {
  const plan = context.short ? PLAN.short : PLAN.full;
  return [
    ...(await retries(context, plan.items, plan.kills.retries)),
    ...(await inbound(context, plan.items, plan.kills.inbound)),
    ...(await dispatch(context, plan.items, plan.kills.dispatch)),
  ];
}
