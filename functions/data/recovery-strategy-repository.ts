import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { ExperimentKind, RetryTimingSetting, VariantSetting } from '#core/experiments/experiment';
import { env } from '#shared/env';
import { documentClient } from './client';
import { EXPERIMENT_ENTITY, experimentKeys } from './keys';

/**
 * The merchant's recovery strategy defaults, one setting per experiment kind (retry timing,
 * campaign, channel, offer): what a promoted winner or a directly applied suggestion sets. The
 * retry policy reads `retry_timing` (retry-planning.ts); campaign enrollment, campaign email steps
 * and cancel sessions read the others (strategy-settings.ts). An item written only by UpdateItem.
 */
export interface RecoveryStrategy {
  readonly retry_timing: RetryTimingSetting;
  readonly campaign: VariantSetting | null;
  readonly channel: VariantSetting | null;
  readonly offer: VariantSetting | null;
  readonly updated_at: string | null;
  /** Bumped by every change (the condition of the next). */
  readonly version: number;
}

export const DEFAULT_RECOVERY_STRATEGY: RecoveryStrategy = { retry_timing: {}, campaign: null, channel: null, offer: null, updated_at: null, version: 0 };

export async function getRecoveryStrategy(merchantId: string): Promise<RecoveryStrategy> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: env.TABLE_NAME, Key: experimentKeys.recoveryStrategy(merchantId), ConsistentRead: true }),
  );
  if (Item === undefined) return DEFAULT_RECOVERY_STRATEGY;
  return {
    retry_timing: (Item.retry_timing ?? {}) as RetryTimingSetting,
    campaign: (Item.campaign ?? null) as VariantSetting | null,
    channel: (Item.channel ?? null) as VariantSetting | null,
    offer: (Item.offer ?? null) as VariantSetting | null,
    updated_at: (Item.updated_at ?? null) as string | null,
    version: Number(Item.version ?? 0),
  };
}

/**
 * A retry-timing setting laid over another: the newer's fields win, and decline codes that stop
 * retries add up (stopping one code never resumes another).
 */
export function mergeRetryTiming(base: RetryTimingSetting, next: RetryTimingSetting): RetryTimingSetting {
  const codes = [...new Set([...(base.stop_decline_codes ?? []), ...(next.stop_decline_codes ?? [])])];
  return { ...base, ...next, ...(codes.length === 0 ? {} : { stop_decline_codes: codes }) };
}

/**
 * The write that sets the merchant's default for one kind over `current` (retry timing merged as
 * mergeRetryTiming), conditional on `current` still being the latest, for a transaction; and the
 * strategy after it.
 */
export function recoveryDefaultWrite(merchantId: string, current: RecoveryStrategy, kind: ExperimentKind, setting: VariantSetting, source: string, now: Date) {
  const value = kind === 'retry_timing' ? mergeRetryTiming(current.retry_timing, setting as RetryTimingSetting) : setting;
  const at = now.toISOString();
  const update = {
    Update: {
      TableName: env.TABLE_NAME,
      Key: experimentKeys.recoveryStrategy(merchantId),
      UpdateExpression: 'SET #entity = :entity, merchant_id = :m, #kind = :value, updated_at = :at, updated_by = :source, version = :next',
      ConditionExpression: current.updated_at === null ? 'attribute_not_exists(version)' : 'version = :version',
      ExpressionAttributeNames: { '#entity': 'entity', '#kind': kind },
      ExpressionAttributeValues: {
        ':entity': EXPERIMENT_ENTITY.recoveryStrategy,
        ':m': merchantId,
        ':value': value,
        ':at': at,
        ':source': source,
        ':next': current.version + 1,
        ...(current.updated_at === null ? {} : { ':version': current.version }),
      },
    },
  };
  const strategy: RecoveryStrategy = { ...current, [kind]: value, updated_at: at, version: current.version + 1 };
  return { update, strategy };
}
