import { ValidationError } from '#core/errors';
import { idBody, timeOrderedId } from '#core/ids';
import type { OfferType } from '#core/cancel-flows';
import { bucketOf } from './assign';
import { NUMERIC_OFFER_RANGE, offerValueOf } from './offer-setting';

/**
 * A recovery experiment (issue 15): variants of one recovery strategy (retry timing, campaign,
 * channel or offer), customers split between them by GrowthBook's hash of the experiment's seed
 * and the customer id (assign.ts), exposures and conversions counted per variant, and a winner
 * promoted into the merchant's recovery strategy defaults. The first variant is the control.
 */
export const EXPERIMENT_KINDS = ['retry_timing', 'campaign', 'channel', 'offer'] as const;
export type ExperimentKind = (typeof EXPERIMENT_KINDS)[number];

/** `stopped`: assignment is frozen, everyone gets control. `promoted`: the winner is the merchant's default. */
export const EXPERIMENT_STATUSES = ['running', 'stopped', 'promoted'] as const;
export type ExperimentStatus = (typeof EXPERIMENT_STATUSES)[number];

export const EXPERIMENT_SOURCES = ['suggestion', 'email_ab_test', 'cli'] as const;
export type ExperimentSourceType = (typeof EXPERIMENT_SOURCES)[number];

export const MESSAGE_CHANNELS = ['email', 'sms', 'whatsapp'] as const;
export const OFFER_TYPES = ['none', 'discount', 'pause', 'downgrade', 'custom'] as const;

/** How the retry policy times retries (core/retry-policy.ts reads it). Every field optional: absent keeps the policy's own rule. */
export interface RetryTimingSetting {
  /** The wait before each retry, 1-720 h, instead of the scorer's. */
  readonly delay_hours?: number;
  /** Insufficient-funds retries go on the morning of the next payday (1st, 15th, last day of the month), whatever the wait. */
  readonly payday_aligned?: boolean;
  /** Decline codes that are never retried (they never recover for this merchant). */
  readonly stop_decline_codes?: readonly string[];
}
export interface CampaignSetting {
  readonly campaign_id: string | null;
}
export interface ChannelSetting {
  readonly channels: readonly (typeof MESSAGE_CHANNELS)[number][];
}
export interface OfferSetting {
  readonly offer_type: (typeof OFFER_TYPES)[number];
  readonly offer_value?: string;
}
export type VariantSetting = RetryTimingSetting | CampaignSetting | ChannelSetting | OfferSetting;

export interface ExperimentVariant {
  /** `control`, `treatment`, `treatment_2`, ... */
  readonly key: string;
  readonly name: string;
  readonly setting: VariantSetting;
}

export interface ExperimentSource {
  readonly type: ExperimentSourceType;
  readonly id: string | null;
}

export interface ExperimentRecord {
  /** `xp_<time-ordered body>`. */
  readonly id: string;
  readonly merchant_id: string;
  readonly name: string;
  readonly kind: ExperimentKind;
  readonly variants: readonly ExperimentVariant[];
  /** The hash seed: fixed at creation, so assignment never moves. */
  readonly seed: string;
  readonly status: ExperimentStatus;
  readonly minimum_sample_per_variant: number;
  readonly source: ExperimentSource;
  readonly winner: string | null;
  readonly started_at: string;
  readonly stopped_at: string | null;
  readonly promoted_at: string | null;
}

export const experimentIdFor = (body: string): string => `xp_${body}`;
export const experimentBodyOf = (id: string): string | undefined => idBody(id, 'xp');

export const VARIANT_COUNT = { min: 2, max: 4 } as const;
export const EXPERIMENT_MINIMUM_SAMPLE = { default: 100, min: 30, max: 1_000_000 } as const;
const MAX_NAME = 200;
const MAX_CODES = 50;
const MAX_TEXT = 200;

export interface NewExperiment {
  readonly merchantId: string;
  readonly name: string;
  readonly kind: ExperimentKind;
  readonly settings: readonly VariantSetting[];
  readonly minimumSample?: number | undefined;
  readonly source: ExperimentSource;
}

/** The key of the i-th variant: the control first. */
export const variantKeyAt = (index: number): string => (index === 0 ? 'control' : index === 1 ? 'treatment' : `treatment_${index}`);

/** A new running experiment; refuses (422 with `param`) a bad kind, setting, count or minimum. */
export function newExperiment(input: NewExperiment, now: Date): ExperimentRecord {
  if (!(EXPERIMENT_KINDS as readonly string[]).includes(input.kind))
    throw new ValidationError(`kind must be one of ${EXPERIMENT_KINDS.join(', ')}.`, { param: 'kind' });
  if (input.settings.length < VARIANT_COUNT.min || input.settings.length > VARIANT_COUNT.max) {
    throw new ValidationError(`An experiment has ${VARIANT_COUNT.min}-${VARIANT_COUNT.max} variants, the first the control.`, { param: 'variants' });
  }
  const minimum = input.minimumSample ?? EXPERIMENT_MINIMUM_SAMPLE.default;
  if (!Number.isInteger(minimum) || minimum < EXPERIMENT_MINIMUM_SAMPLE.min || minimum > EXPERIMENT_MINIMUM_SAMPLE.max) {
    throw new ValidationError(`min_sample is an integer ${EXPERIMENT_MINIMUM_SAMPLE.min}-${EXPERIMENT_MINIMUM_SAMPLE.max}.`, { param: 'min_sample' });
  }
  const name = input.name.trim();
  if (name.length === 0 || name.length > MAX_NAME) throw new ValidationError(`name is 1-${MAX_NAME} characters.`, { param: 'name' });
  const body = timeOrderedId(now);
  return {
    id: experimentIdFor(body),
    merchant_id: input.merchantId,
    name,
    kind: input.kind,
    variants: input.settings.map((setting, i) => ({
      key: variantKeyAt(i),
      name: variantKeyAt(i),
      setting: parseVariantSetting(input.kind, setting, `variants[${i}]`),
    })),
    seed: body,
    status: 'running',
    minimum_sample_per_variant: minimum,
    source: input.source,
    winner: null,
    started_at: now.toISOString(),
    stopped_at: null,
    promoted_at: null,
  };
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isText = (value: unknown): value is string => typeof value === 'string' && value.length > 0 && value.length <= MAX_TEXT;

/** A variant's setting for its kind, checked field by field (unknown fields refused); `param` names the bad one. */
export function parseVariantSetting(kind: ExperimentKind, value: unknown, param: string): VariantSetting {
  const bad = (field: string, rule: string): never => {
    throw new ValidationError(`${param}.${field} ${rule}.`, { param: `${param}.${field}` });
  };
  if (!isObject(value)) throw new ValidationError(`${param} must be an object (the variant's setting).`, { param });
  const allowed: Record<ExperimentKind, readonly string[]> = {
    retry_timing: ['delay_hours', 'payday_aligned', 'stop_decline_codes'],
    campaign: ['campaign_id'],
    channel: ['channels'],
    offer: ['offer_type', 'offer_value'],
  };
  for (const field of Object.keys(value)) if (!allowed[kind].includes(field)) bad(field, `is not a ${kind} setting (${allowed[kind].join(', ')})`);
  switch (kind) {
    case 'retry_timing': {
      const { delay_hours, payday_aligned, stop_decline_codes } = value;
      if (delay_hours !== undefined && !(Number.isInteger(delay_hours) && (delay_hours as number) >= 1 && (delay_hours as number) <= 720))
        bad('delay_hours', 'is an integer 1-720');
      if (payday_aligned !== undefined && typeof payday_aligned !== 'boolean') bad('payday_aligned', 'is a boolean');
      if (
        stop_decline_codes !== undefined &&
        !(Array.isArray(stop_decline_codes) && stop_decline_codes.length <= MAX_CODES && stop_decline_codes.every(isText))
      ) {
        bad('stop_decline_codes', `is a list of at most ${MAX_CODES} decline codes`);
      }
      return {
        ...(delay_hours === undefined ? {} : { delay_hours: delay_hours as number }),
        ...(payday_aligned === undefined ? {} : { payday_aligned: payday_aligned as boolean }),
        ...(stop_decline_codes === undefined ? {} : { stop_decline_codes: stop_decline_codes as string[] }),
      };
    }
    case 'campaign':
      if (value.campaign_id !== null && !isText(value.campaign_id)) bad('campaign_id', 'is a campaign id or null (no campaign)');
      return { campaign_id: value.campaign_id as string | null };
    case 'channel': {
      const channels = value.channels;
      if (
        !Array.isArray(channels) ||
        channels.length === 0 ||
        !channels.every((c) => (MESSAGE_CHANNELS as readonly unknown[]).includes(c)) ||
        new Set(channels).size !== channels.length
      ) {
        bad('channels', `is a non-empty list of distinct channels (${MESSAGE_CHANNELS.join(', ')})`);
      }
      return { channels: channels as ChannelSetting['channels'] };
    }
    case 'offer': {
      if (!(OFFER_TYPES as readonly unknown[]).includes(value.offer_type)) bad('offer_type', `is one of ${OFFER_TYPES.join(', ')}`);
      if (value.offer_value !== undefined && !isText(value.offer_value)) bad('offer_value', `is a string of 1-${MAX_TEXT} characters`);
      // A discount's and a pause's value is the number a cancel flow's offer holds (offer-setting.ts).
      const range = NUMERIC_OFFER_RANGE[value.offer_type as OfferType];
      if (value.offer_value !== undefined && range !== undefined && offerValueOf(value.offer_type as OfferType, value.offer_value as string) === undefined)
        bad('offer_value', `of a ${value.offer_type as string} starts with a whole number ${range.min}-${range.max} (${range.unit})`);
      return {
        offer_type: value.offer_type as OfferSetting['offer_type'],
        ...(value.offer_value === undefined ? {} : { offer_value: value.offer_value as string }),
      };
    }
  }
}

/** Equal shares: each variant's expected share of customers. */
export const variantWeights = (experiment: Pick<ExperimentRecord, 'variants'>): number[] => experiment.variants.map(() => 1 / experiment.variants.length);

/**
 * The variant a customer gets: while running, GrowthBook's ranges over the hash bucket of
 * seed + customer id (equal shares), the same on every call; once stopped, the control (stop
 * freezes assignment); once promoted, the winner (it is the default now).
 *
 * @example variantFor(experiment, 'cust_42').key // 'control' or 'treatment', always the same
 */
export function variantFor(experiment: ExperimentRecord, customerId: string): ExperimentVariant {
  const control = experiment.variants[0] as ExperimentVariant;
  if (experiment.status === 'stopped') return control;
  if (experiment.status === 'promoted') return experiment.variants.find((v) => v.key === experiment.winner) ?? control;
  const bucket = bucketOf(experiment.seed, customerId);
  const index = Math.min(experiment.variants.length - 1, Math.floor(bucket * experiment.variants.length));
  return experiment.variants[index] as ExperimentVariant;
}
