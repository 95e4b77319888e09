import type { CampaignSetting, ChannelSetting, ExperimentKind, ExperimentRecord, OfferSetting } from '#core/experiments/experiment';
import { assignCustomer, listExperiments } from './experiment-repository';
import { getRecoveryStrategy, type RecoveryStrategy } from './recovery-strategy-repository';

/**
 * What deciding any kind's setting reads: the merchant's defaults (GetItem) and experiments (one
 * Query of a handful), in parallel. Read once per operation: the retry planning of a newly failed
 * payment hands its read to the payment's campaign enrollment (ingest).
 */
export interface StrategyInputs {
  readonly strategy: RecoveryStrategy;
  readonly experiments: readonly ExperimentRecord[];
}

export async function loadStrategyInputs(merchantId: string): Promise<StrategyInputs> {
  const [strategy, experiments] = await Promise.all([getRecoveryStrategy(merchantId), listExperiments(merchantId)]);
  return { strategy, experiments };
}

/** The settings of the kinds that steer one decision each (retry timing is merged instead: retry-planning.ts). */
interface SettingOfKind {
  readonly campaign: CampaignSetting;
  readonly channel: ChannelSetting;
  readonly offer: OfferSetting;
}
export type SteeringKind = keyof SettingOfKind & ExperimentKind;

/** A setting that applies to one customer, and where it comes from. */
export interface StrategyChoice<K extends SteeringKind> {
  readonly setting: SettingOfKind[K];
  /** The running experiment whose variant it is (the customer was assigned: the exposure), or null for the merchant's default. */
  readonly experiment_id: string | null;
  readonly variant: string | null;
}

/**
 * The setting of `kind` (campaign, channel or offer) that applies to a customer, as the retry
 * policy's retry timing does (retry-planning.ts): the customer's variant in the running experiment
 * of the kind, recorded here the first time it is used for them (the exposure, counted once);
 * else the merchant's default for the kind (a promoted winner or a directly applied suggestion);
 * else undefined, and the caller does what it does without any (today's behaviour). A stopped
 * experiment no longer steers anything: its control is today's behaviour. Cost: loadStrategyInputs
 * unless the caller has them (`inputs`), and the assignment's conditional put while one runs.
 * Callers ask once per decision.
 *
 * @example (await strategySettingFor('merch_1', 'cust_1', 'channel', now))?.setting.channels // ['email', 'sms']
 */
export async function strategySettingFor<K extends SteeringKind>(
  merchantId: string,
  customerId: string,
  kind: K,
  now: Date,
  inputs?: StrategyInputs,
): Promise<StrategyChoice<K> | undefined> {
  const { strategy, experiments } = inputs ?? (await loadStrategyInputs(merchantId));
  const running = experiments.find((experiment) => experiment.kind === kind && experiment.status === 'running');
  if (running !== undefined) {
    const variant = await assignCustomer(running, customerId, now);
    return { setting: variant.setting as SettingOfKind[K], experiment_id: running.id, variant: variant.key };
  }
  const fallback = strategy[kind];
  return fallback === null ? undefined : { setting: fallback as SettingOfKind[K], experiment_id: null, variant: null };
}
