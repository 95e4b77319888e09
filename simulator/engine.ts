import { type SandboxOutcomeSource, useSandboxOutcomeSource } from '#adapters/payment-gateways/sandbox';
import { registerLocalQueueTransport } from '#adapters/queue-sender';
import { fieldsOfTemplate, newCampaign } from '#core/campaigns/lifecycle';
import { campaignTemplateById } from '#core/campaigns/templates';
import type { Currency } from '#core/money';
import { createCampaign } from '#data/campaign-repository';
import { getEnrollment } from '#data/enrollment-repository';
import { getMessage } from '#data/message-repository';
import { getPayment } from '#data/payment-repository';
import { advanceCampaignSteps } from '#jobs/advance-campaign-steps';
import { executeDueRetries } from '#jobs/execute-due-retries';
import { setCampaignStatus } from '#services/campaign-status';
import { ingestPaymentEvent } from '#services/ingest-payment-event';
import type { Portfolio, SimDecline, SimPayment } from './portfolio';
import { World } from './world';

/**
 * The service's strategies, run through the real code on DynamoDB Local with a simulated clock:
 * - each failure enters through ingest (services/ingest-payment-event.ts), which classifies it,
 *   records it and lets the retry policy (core/retry-policy.ts) plan its first retry; with
 *   campaigns, ingest also enrolls it in the merchant's active campaigns;
 * - at each instant something is due, the clock jumps there and the jobs run as the scheduler
 *   would run them at that time: the campaign engine (jobs/advance-campaign-steps.ts) and the
 *   retry executor (jobs/execute-due-retries.ts), which claims each retry within the card-network
 *   caps and calls the sandbox gateway;
 * - the sandbox gateway's answer comes from the simulated world (world.ts: the recovery curves),
 *   through its outcome-source seam, never from a copy of the policy;
 * - campaign messages are caught on the local queue transport: a customer who receives one may
 *   give a new card, which arrives later through ingest as `payment_method_updated`, as a
 *   provider's webhook would bring it.
 * Runs one payment at a time (concurrency 1) so the run is the same for the same seed.
 */
export interface EngineOptions {
  readonly campaigns: boolean;
  /** A merchant id of its own per run (the table may hold other runs). */
  readonly merchantId: string;
}

const NO_BUDGET = Number.MAX_SAFE_INTEGER;
/** At most this many job runs: a guard against a loop that would not advance. */
const MAX_TICKS = 1_000_000;

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
/** The first multiple of `step` at or after `ms` (the jobs run on whole minutes and hours). */
const ceilTo = (ms: number, step: number): number => Math.ceil(ms / step) * step;

const networkOf = (decline: SimDecline): string | undefined => (decline.network === 'other' ? undefined : decline.network);

/** The gateway's answer for a world outcome. */
function answerOf(outcome: ReturnType<World['attempt']>): ReturnType<SandboxOutcomeSource> {
  if (outcome.succeeded) return { status: 'succeeded' };
  const { decline } = outcome;
  const network = networkOf(decline);
  return {
    status: 'declined',
    declineCode: decline.declineCode,
    ...(network === undefined ? {} : { network }),
    ...(decline.networkCode === undefined ? {} : { networkCode: decline.networkCode }),
    ...(decline.adviceCode === undefined ? {} : { adviceCode: decline.adviceCode }),
  };
}

async function createCampaignsFromTemplates(merchantId: string, at: Date): Promise<void> {
  for (const id of ['soft_decline', 'hard_decline']) {
    const template = campaignTemplateById(id);
    if (template === undefined) throw new Error(`No campaign template ${id}`);
    const campaign = await createCampaign(newCampaign(merchantId, fieldsOfTemplate(template), at));
    await setCampaignStatus(merchantId, campaign.id, 'activate', at);
  }
}

/** A strategy's run in progress: its merchant's gateway answers and campaign messages go to it. */
interface ActiveRun {
  readonly answer: SandboxOutcomeSource;
  readonly queued: (messageId: string) => void;
}

/**
 * The run in progress, by merchant: the sandbox gateway's outcome source and the local queue
 * transport, one each per process, send the merchant's calls to it. One run at a time: the jobs
 * serve every merchant of the table, so a second run would have its due work done at the first
 * one's clock.
 */
const active = new Map<string, ActiveRun>();

function startRun(merchantId: string, run: ActiveRun): void {
  if (active.size > 0) throw new Error('A simulation is already running in this process: run strategies one after the other');
  active.set(merchantId, run);
  useSandboxOutcomeSource((request) => {
    const owner = active.get(request.merchantId);
    if (owner === undefined) throw new Error(`No simulation runs for merchant ${request.merchantId}`);
    return owner.answer(request);
  });
  let sent = 0;
  registerLocalQueueTransport({
    send(queue, body) {
      const parsed = JSON.parse(body) as { merchant_id?: unknown; message_id?: unknown };
      if (queue === 'notifications' && typeof parsed.merchant_id === 'string' && typeof parsed.message_id === 'string')
        active.get(parsed.merchant_id)?.queued(parsed.message_id);
      sent += 1;
      return `sim-${queue}-${sent}`;
    },
  });
}

function endRun(merchantId: string): void {
  active.delete(merchantId);
  if (active.size > 0) return;
  useSandboxOutcomeSource(undefined);
  registerLocalQueueTransport(undefined);
}

/** What the run knows of a payment in the service: when its next retry and its next campaign step are due. */
interface Tracked {
  readonly sim: SimPayment;
  retryAt: number | undefined;
  stepAt: number | undefined;
}

export async function runServiceStrategy(portfolio: Portfolio, options: EngineOptions): Promise<World> {
  const world = new World(portfolio);
  const { merchantId } = options;
  let clock = portfolio.start;
  const tracked = new Map<string, Tracked>();
  const cardUpdates: { at: Date; customer: number; n: number }[] = [];
  const addUpdate = (customer: number, at: Date) => {
    cardUpdates.push({ at, customer, n: cardUpdates.length });
    cardUpdates.sort((a, b) => a.at.getTime() - b.at.getTime() || a.n - b.n);
  };
  for (const customer of portfolio.customers) for (const at of world.cardUpdatesOf(customer.index)) addUpdate(customer.index, at);
  const messages: { merchantId: string; messageId: string }[] = [];
  /**
   * Reads the payments' due times again after a change (instead of polling the due indexes, which
   * costs a Query per shard each time: the jobs query them themselves when they run).
   */
  const refresh = async (ids: readonly string[]) => {
    for (const id of ids) {
      const entry = tracked.get(id);
      if (entry === undefined) continue;
      const [payment, enrollment] = await Promise.all([getPayment(merchantId, id), options.campaigns ? getEnrollment(merchantId, id) : undefined]);
      entry.retryAt = payment?.next_retry_at ? Date.parse(payment.next_retry_at) : undefined;
      entry.stepAt = enrollment?.status === 'active' && enrollment.next_step_at !== null ? Date.parse(enrollment.next_step_at) : undefined;
    }
  };
  const dueBy = (at: number, field: 'retryAt' | 'stepAt') =>
    [...tracked].filter(([, t]) => t[field] !== undefined && (t[field] as number) <= at).map(([id]) => id);
  const earliest = (field: 'retryAt' | 'stepAt') => {
    let min: number | undefined;
    for (const t of tracked.values()) if (t[field] !== undefined && (min === undefined || (t[field] as number) < min)) min = t[field];
    return min;
  };

  const run: ActiveRun = {
    answer: (request) => {
      const payment = request.providerPaymentId === null ? undefined : world.byProviderId.get(request.providerPaymentId);
      if (payment === undefined) throw new Error(`The simulator has no payment ${request.providerPaymentId}`);
      return answerOf(world.attempt(payment, request.attemptNumber, clock));
    },
    queued: (messageId) => messages.push({ merchantId, messageId }),
  };
  startRun(merchantId, run);
  try {
    if (options.campaigns) await createCampaignsFromTemplates(merchantId, new Date(portfolio.start.getTime() - 86_400_000));
    let failure = 0;
    let delivered = 0;
    let previous = -Infinity;
    for (let tick = 0; tick < MAX_TICKS; tick += 1) {
      // The jobs' own schedules: the retry executor runs every minute, the campaign engine every hour.
      const retryDue = earliest('retryAt');
      const stepDue = earliest('stepAt');
      const retryRun = retryDue === undefined ? undefined : ceilTo(retryDue, MINUTE_MS);
      const stepRun = stepDue === undefined ? undefined : ceilTo(stepDue, HOUR_MS);
      const candidates = [portfolio.payments[failure]?.failedAt.getTime(), cardUpdates[delivered]?.at.getTime(), retryRun, stepRun].filter(
        (t): t is number => t !== undefined,
      );
      if (candidates.length === 0) break;
      // A due entry the jobs left due (claimed elsewhere, in flight) must not hold the clock still.
      const next = Math.max(Math.min(...candidates), previous + MINUTE_MS);
      if (next > portfolio.end.getTime()) break;
      previous = next;
      clock = new Date(next);
      for (; failure < portfolio.payments.length && (portfolio.payments[failure] as SimPayment).failedAt.getTime() <= next; failure += 1) {
        const payment = portfolio.payments[failure] as SimPayment;
        const network = networkOf(payment.decline);
        const result = await ingestPaymentEvent(
          merchantId,
          {
            type: 'payment_failed',
            amount: payment.amount,
            currency: payment.currency as Currency,
            customerEmail: payment.customer.email,
            // What a merchant that knows its customer's time zone sends (metadata.customer_timezone).
            customerTimezone: payment.customer.timezone,
            declineCode: payment.decline.declineCode,
            eventId: `evt_${payment.providerPaymentId}`,
            psp: 'stripe',
            providerPaymentId: payment.providerPaymentId,
            ...(network === undefined ? {} : { network }),
            ...(payment.decline.networkCode === undefined ? {} : { networkCode: payment.decline.networkCode }),
            ...(payment.decline.adviceCode === undefined ? {} : { adviceCode: payment.decline.adviceCode }),
            metadata: {},
          },
          clock,
        );
        if (result.payment_event_id === null) continue;
        tracked.set(result.payment_event_id, { sim: payment, retryAt: undefined, stepAt: undefined });
        await refresh([result.payment_event_id]);
      }
      for (; delivered < cardUpdates.length && (cardUpdates[delivered] as { at: Date }).at.getTime() <= next; delivered += 1) {
        const update = cardUpdates[delivered] as { at: Date; customer: number; n: number };
        const customer = portfolio.customers[update.customer];
        if (customer === undefined) continue;
        await ingestPaymentEvent(
          merchantId,
          {
            type: 'payment_method_updated',
            amount: 0,
            currency: customer.currency as Currency,
            customerEmail: customer.email,
            declineCode: null,
            eventId: `evt_card_${portfolio.seed}_${update.customer}_${update.n}`,
            psp: 'stripe',
            metadata: {},
          },
          clock,
        );
        await refresh([...tracked].filter(([, t]) => t.sim.customer.index === update.customer).map(([id]) => id));
      }
      const input = { now: clock, executionId: `sim-${tick}` };
      if (stepRun !== undefined && stepRun <= next) {
        const stepped = dueBy(next, 'stepAt');
        await advanceCampaignSteps(input, { concurrency: 1, budgetMs: NO_BUDGET });
        await refresh(stepped);
      }
      // Messages the campaign steps queued reach their customers now.
      for (const queued of messages.splice(0)) {
        const message = await getMessage(queued.merchantId, queued.messageId);
        const payment = message?.payment_id == null ? undefined : tracked.get(message.payment_id)?.sim;
        if (message === undefined || payment === undefined) continue;
        const update = world.messageReceived(payment, message.channel, clock);
        if (update !== undefined) addUpdate(payment.customer.index, update);
      }
      const attempted = dueBy(next, 'retryAt');
      if (attempted.length > 0) {
        await executeDueRetries(input, { concurrency: 1, budgetMs: NO_BUDGET });
        await refresh(attempted);
      }
    }
  } finally {
    endRun(merchantId);
  }
  return world;
}
