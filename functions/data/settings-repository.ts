import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { DEFAULT_QUIET_HOURS, type QuietHours } from '#core/quiet-hours';
import { DEFAULT_RECOVERY_GOAL_PERIOD, type RecoveryGoalPeriod } from '#core/recovery-goal';
import { env } from '#shared/env';
import { documentClient } from './client';
import { ENTITY, settingsKeys } from './keys';

type Item = Record<string, unknown>;

/**
 * The merchant's settings, one item each (keys.ts): quiet hours and the recovery goal. A merchant
 * that never set them has defaults, which are not stored:
 * - quiet hours: 22 → 7 UTC, `enabled: false`, `updated_at: null` (a GET before any POST answers
 *   this object, as Stripe answers a settings object with its defaults);
 * - recovery goal: `target_rate: null`, period monthly, `updated_at: null`.
 */
export interface QuietHoursRecord {
  readonly start_hour: number;
  readonly end_hour: number;
  readonly timezone: string;
  readonly enabled: boolean;
  /** null until the merchant sets quiet hours. */
  readonly updated_at: string | null;
}

export interface RecoveryGoalRecord {
  /** 0-1; null until the merchant sets a goal. */
  readonly target_rate: number | null;
  readonly period: RecoveryGoalPeriod;
  readonly updated_at: string | null;
}

const get = async (key: { PK: string; SK: string }): Promise<Item | undefined> =>
  (await documentClient.send(new GetCommand({ TableName: env.TABLE_NAME, Key: key, ConsistentRead: true }))).Item;

export const DEFAULT_QUIET_HOURS_RECORD: QuietHoursRecord = {
  start_hour: DEFAULT_QUIET_HOURS.startHour,
  end_hour: DEFAULT_QUIET_HOURS.endHour,
  timezone: DEFAULT_QUIET_HOURS.timezone,
  enabled: DEFAULT_QUIET_HOURS.enabled,
  updated_at: null,
};

function quietHoursRecordOf(item: Item | undefined): QuietHoursRecord {
  if (item === undefined) return DEFAULT_QUIET_HOURS_RECORD;
  return {
    start_hour: item.start_hour as number,
    end_hour: item.end_hour as number,
    timezone: item.timezone as string,
    enabled: item.enabled as boolean,
    updated_at: item.updated_at as string,
  };
}

/** The domain view of the record (functions/core/quiet-hours.ts). */
export const quietHoursOf = (record: QuietHoursRecord): QuietHours => ({
  startHour: record.start_hour,
  endHour: record.end_hour,
  timezone: record.timezone,
  enabled: record.enabled,
});

/** The merchant's quiet hours (consistent read), or the disabled default. */
export async function readQuietHours(merchantId: string): Promise<QuietHoursRecord> {
  return quietHoursRecordOf(await get(settingsKeys.quietHours(merchantId)));
}

/** How long `getQuietHours` trusts what it read: a change made elsewhere reaches the retry engine within this. */
export const QUIET_HOURS_CACHE_MS = 60_000;
const cache = new Map<string, { readonly value: QuietHours; readonly expiresAt: number }>();

/**
 * The merchant's quiet hours for the retry engine and dunning, cached in the process for
 * `QUIET_HOURS_CACHE_MS` (a batch of due retries reads them once per merchant). A change made in
 * this process (`putQuietHours`) is seen at once; one made by another Lambda within the cache time.
 */
export async function getQuietHours(merchantId: string, now: number = Date.now()): Promise<QuietHours> {
  const cached = cache.get(merchantId);
  if (cached !== undefined && cached.expiresAt > now) return cached.value;
  const value = quietHoursOf(await readQuietHours(merchantId));
  cache.set(merchantId, { value, expiresAt: now + QUIET_HOURS_CACHE_MS });
  return value;
}

/** Forgets every cached quiet hours (tests, and a process that must re-read at once). */
export function clearQuietHoursCache(): void {
  cache.clear();
}

/** Stores the merchant's quiet hours (a whole new window), keeping when they were first set. */
export async function putQuietHours(merchantId: string, quietHours: QuietHours, now: Date = new Date()): Promise<QuietHoursRecord> {
  const at = now.toISOString();
  const { Attributes } = await documentClient.send(
    new UpdateCommand({
      TableName: env.TABLE_NAME,
      Key: settingsKeys.quietHours(merchantId),
      UpdateExpression:
        'SET #entity = :entity, start_hour = :start, end_hour = :end, #timezone = :timezone, enabled = :enabled, updated_at = :at, created_at = if_not_exists(created_at, :at)',
      ExpressionAttributeNames: { '#entity': 'entity', '#timezone': 'timezone' },
      ExpressionAttributeValues: {
        ':entity': ENTITY.settings,
        ':start': quietHours.startHour,
        ':end': quietHours.endHour,
        ':timezone': quietHours.timezone,
        ':enabled': quietHours.enabled,
        ':at': at,
      },
      ReturnValues: 'ALL_NEW',
    }),
  );
  const record = quietHoursRecordOf(Attributes);
  cache.set(merchantId, { value: quietHoursOf(record), expiresAt: now.getTime() + QUIET_HOURS_CACHE_MS });
  return record;
}

function recoveryGoalRecordOf(item: Item | undefined): RecoveryGoalRecord {
  if (item === undefined) return { target_rate: null, period: DEFAULT_RECOVERY_GOAL_PERIOD, updated_at: null };
  return { target_rate: item.target_rate as number, period: item.period as RecoveryGoalPeriod, updated_at: item.updated_at as string };
}

/** The merchant's recovery goal (consistent read), or no target over the default period. */
export async function readRecoveryGoal(merchantId: string): Promise<RecoveryGoalRecord> {
  return recoveryGoalRecordOf(await get(settingsKeys.recoveryGoal(merchantId)));
}

/**
 * Stores the merchant's recovery goal. Without a period, the goal keeps the period it has (a
 * goal set for the first time is monthly), so changing only the target changes nothing else.
 */
export async function putRecoveryGoal(
  merchantId: string,
  goal: { readonly targetRate: number; readonly period?: RecoveryGoalPeriod | undefined },
  now: Date = new Date(),
): Promise<RecoveryGoalRecord> {
  const at = now.toISOString();
  const { Attributes } = await documentClient.send(
    new UpdateCommand({
      TableName: env.TABLE_NAME,
      Key: settingsKeys.recoveryGoal(merchantId),
      UpdateExpression: `SET #entity = :entity, target_rate = :rate, #period = ${goal.period === undefined ? 'if_not_exists(#period, :period)' : ':period'}, updated_at = :at, created_at = if_not_exists(created_at, :at)`,
      ExpressionAttributeNames: { '#entity': 'entity', '#period': 'period' },
      ExpressionAttributeValues: { ':entity': ENTITY.settings, ':rate': goal.targetRate, ':period': goal.period ?? DEFAULT_RECOVERY_GOAL_PERIOD, ':at': at },
      ReturnValues: 'ALL_NEW',
    }),
  );
  return recoveryGoalRecordOf(Attributes);
}
