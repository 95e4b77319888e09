import { dayOf } from '#core/analytics/period';
import { ROLLUP_FAMILIES, type RollupFamily, type RollupGranularity, rollupKeys } from '#data/keys';
import { listMerchants } from '#data/merchant-repository';
import { projections as allProjections } from '#data/projections/index';
import type { Projection } from '#data/projections/projection';
import { rollupSourceItems, storedRollupsOfDay } from '#data/rollup-sources';
import { env } from '#shared/env';
import { logger } from '#shared/logger';

const DAY_MS = 86_400_000;
const GRANULARITIES: readonly RollupGranularity[] = ['H', 'D'];

/** One counter of one rollup item whose stored value is not what its source items add up to. */
export interface RollupDrift {
  readonly family: RollupFamily;
  readonly granularity: RollupGranularity;
  readonly bucket: string;
  /** The item's sort key (bucket and dimension values). */
  readonly sk: string;
  readonly dims: Readonly<Record<string, string>>;
  readonly counter: string;
  readonly stored: number;
  readonly recomputed: number;
  /** stored − recomputed: positive when the item counts too much. */
  readonly delta: number;
}

/** The recompute of one merchant's rollups of one day. */
export interface MerchantRollupReport {
  readonly merchant_id: string;
  readonly day: string;
  /** Source items read (payments created that day, messages created in the lookback). */
  readonly source_items: number;
  /** Rollup items the sources add up to, and rollup items stored, for that day. */
  readonly items_recomputed: number;
  readonly items_stored: number;
  readonly drift: readonly RollupDrift[];
}

/** A rollup item identified by family, granularity and sort key, with its counters (stored or recomputed). */
export interface RollupItemCounters {
  readonly family: RollupFamily;
  readonly granularity: RollupGranularity;
  readonly bucket: string;
  readonly sk: string;
  dims: Readonly<Record<string, string>>;
  readonly counters: Record<string, number>;
}

const bucketOf = (sk: string): string => sk.split('#')[0] ?? '';
const inDay = (bucket: string, granularity: RollupGranularity, day: string): boolean => (granularity === 'H' ? bucket.startsWith(`${day}T`) : bucket === day);

/**
 * What the source items add up to for the rollup items of one day: the sum of every projection's
 * contributions to a rollup item (any family, hour or day) whose bucket lies in that day; the
 * contributions to other counter items (list totals, the open state) or other days are left out.
 * Pure: generic over the projections and families, so a projection added to the list is checked
 * with no change here.
 */
export function recomputedRollups(
  merchantId: string,
  day: string,
  sources: readonly Readonly<Record<string, unknown>>[],
  projections: readonly Projection[],
  families: readonly RollupFamily[] = ROLLUP_FAMILIES,
): Map<string, RollupItemCounters> {
  const partitions = new Map<string, { family: RollupFamily; granularity: RollupGranularity }>();
  for (const family of families)
    for (const granularity of GRANULARITIES) partitions.set(rollupKeys.partition(merchantId, family, granularity), { family, granularity });
  const items = new Map<string, RollupItemCounters>();
  for (const source of sources) {
    for (const contribution of projections.flatMap((projection) => projection(source))) {
      const partition = partitions.get(contribution.key.PK);
      const bucket = bucketOf(contribution.key.SK);
      if (partition === undefined || !inDay(bucket, partition.granularity, day)) continue;
      const id = `${contribution.key.PK}\u0000${contribution.key.SK}`;
      let item = items.get(id);
      if (item === undefined) {
        const dims = (contribution.attributes?.dims ?? {}) as Record<string, string>;
        item = { ...partition, bucket, sk: contribution.key.SK, dims, counters: {} };
        items.set(id, item);
      }
      for (const [name, value] of Object.entries(contribution.counters)) item.counters[name] = (item.counters[name] ?? 0) + value;
    }
  }
  return items;
}

/**
 * Every (item, counter) whose stored value differs from the recomputed one: a counter missing on
 * either side is 0 (the consumer writes no counter that never moved), so a stored item nothing
 * recomputes is drift when it holds anything but zeros, and a recomputed item never stored is
 * drift for each counter it holds.
 */
export function driftBetween(stored: ReadonlyMap<string, RollupItemCounters>, recomputed: ReadonlyMap<string, RollupItemCounters>): RollupDrift[] {
  const drift: RollupDrift[] = [];
  for (const id of new Set([...stored.keys(), ...recomputed.keys()])) {
    const has = stored.get(id);
    const should = recomputed.get(id);
    const item = (should ?? has) as RollupItemCounters;
    for (const counter of new Set([...Object.keys(has?.counters ?? {}), ...Object.keys(should?.counters ?? {})])) {
      const storedValue = has?.counters[counter] ?? 0;
      const recomputedValue = should?.counters[counter] ?? 0;
      if (storedValue === recomputedValue) continue;
      drift.push({
        family: item.family,
        granularity: item.granularity,
        bucket: item.bucket,
        sk: item.sk,
        dims: has?.dims ?? item.dims,
        counter,
        stored: storedValue,
        recomputed: recomputedValue,
        delta: storedValue - recomputedValue,
      });
    }
  }
  return drift.sort(
    (a, b) => a.family.localeCompare(b.family) || a.granularity.localeCompare(b.granularity) || a.sk.localeCompare(b.sk) || a.counter.localeCompare(b.counter),
  );
}

/**
 * Recomputes one merchant's rollup items of one UTC day from the source items and compares them
 * with the stored ones (every family, hour and day items). Reads only: a report, the counters are
 * not rewritten. Cost: 2 Queries of sources and 2 per family of stored items.
 *
 * @example const report = await recomputeMerchantRollups('merch_1', '2026-11-24'); report.drift // []
 */
export async function recomputeMerchantRollups(
  merchantId: string,
  day: string,
  options: { readonly projections?: readonly Projection[]; readonly families?: readonly RollupFamily[] } = {},
): Promise<MerchantRollupReport> {
  const families = options.families ?? ROLLUP_FAMILIES;
  const sources = await rollupSourceItems(merchantId, day);
  const recomputed = recomputedRollups(merchantId, day, sources, options.projections ?? allProjections, families);
  const stored = new Map<string, RollupItemCounters>();
  const reads = families.flatMap((family) => GRANULARITIES.map((granularity) => ({ family, granularity })));
  for (const [index, items] of (await Promise.all(reads.map((read) => storedRollupsOfDay(merchantId, read.family, read.granularity, day)))).entries()) {
    const read = reads[index] as (typeof reads)[number];
    for (const item of items) {
      stored.set(`${item.key.PK}\u0000${item.key.SK}`, { ...read, bucket: item.bucket, sk: item.key.SK, dims: item.dims, counters: { ...item.counters } });
    }
  }
  return {
    merchant_id: merchantId,
    day,
    source_items: sources.length,
    items_recomputed: recomputed.size,
    items_stored: stored.size,
    drift: driftBetween(stored, recomputed),
  };
}

/**
 * How long the job waits before it looks again at a merchant whose rollups drifted
 * (ROLLUP_DRIFT_CONFIRM_MS, 5 s by default): a source item changed in the seconds before the
 * recompute (a payment of yesterday's cohort retried or recovered just now) may not have reached
 * its rollups yet (the stream's lag, typically a few seconds). Only drift seen in both passes is reported.
 */
const driftConfirmMs = (): number => Number(env.ROLLUP_DRIFT_CONFIRM_MS);

const driftId = (drift: RollupDrift): string => `${drift.family}\u0000${drift.granularity}\u0000${drift.sk}\u0000${drift.counter}`;

/**
 * recomputeMerchantRollups, and, when it finds drift, again `confirmAfterMs` later: the drift is
 * what both passes found on the same item and counter (with the second pass's values), so a change
 * still on its way through the stream is not reported.
 */
export async function confirmedMerchantRollups(merchantId: string, day: string, confirmAfterMs: number = driftConfirmMs()): Promise<MerchantRollupReport> {
  const first = await recomputeMerchantRollups(merchantId, day);
  if (first.drift.length === 0 || confirmAfterMs <= 0) return first;
  await new Promise((done) => setTimeout(done, confirmAfterMs));
  const second = await recomputeMerchantRollups(merchantId, day);
  const seen = new Set(first.drift.map(driftId));
  return { ...second, drift: second.drift.filter((drift) => seen.has(driftId(drift))) };
}

/** At most this many drifted counters are listed in the job's report (the counts cover them all). */
const LISTED_DRIFT = 20;

/**
 * The hourly `analytics-rollup` task: for every merchant, recompute yesterday's (UTC, relative to
 * `now`) rollup items and report drift, which must be 0 (confirmed by a second pass,
 * confirmedMerchantRollups). The report and its log line hold counts,
 * merchant ids and, for the first drifted counters, the family, bucket, counter and values, never
 * dimension values (an email domain may name a person).
 */
export async function recomputeRollups(now: Date, options: { readonly confirmAfterMs?: number } = {}): Promise<Record<string, unknown>> {
  const day = dayOf(new Date(now.getTime() - DAY_MS));
  const totals = { merchants: 0, source_items: 0, items_recomputed: 0, items_stored: 0, drifted_counters: 0 };
  const driftByFamily: Record<string, number> = {};
  const merchantsWithDrift: string[] = [];
  const listed: Omit<RollupDrift, 'sk' | 'dims'>[] = [];
  for (const merchant of await listMerchants()) {
    const report = await confirmedMerchantRollups(merchant.id, day, options.confirmAfterMs);
    totals.merchants += 1;
    totals.source_items += report.source_items;
    totals.items_recomputed += report.items_recomputed;
    totals.items_stored += report.items_stored;
    totals.drifted_counters += report.drift.length;
    if (report.drift.length === 0) continue;
    merchantsWithDrift.push(merchant.id);
    for (const { sk: _sk, dims: _dims, ...drift } of report.drift) {
      driftByFamily[drift.family] = (driftByFamily[drift.family] ?? 0) + 1;
      if (listed.length < LISTED_DRIFT) listed.push({ ...drift });
    }
    logger.warn('rollup drift', { merchant_id: merchant.id, day, drifted_counters: report.drift.length, items_stored: report.items_stored });
  }
  const summary = { day, ...totals, drift_by_family: driftByFamily, merchants_with_drift: merchantsWithDrift, drift: listed };
  logger.info('rollups recomputed', { day, ...totals, merchants_with_drift: merchantsWithDrift.length });
  return summary;
}
