/**
 * A rollup item as analytics reads it: its bucket (`YYYY-MM-DDTHH` or `YYYY-MM-DD`, UTC), its
 * dimension values and its counters. `readRollups` (data/rollup-queries.ts) returns these; the
 * analytics arithmetic of this folder takes them and never reads anything itself.
 */
export interface RollupItem {
  readonly bucket: string;
  readonly dims: Readonly<Record<string, string>>;
  readonly counters: Readonly<Record<string, number>>;
}
