import type { ScoreFactor } from '#core/scoring/types';
import { ENTITY, scoreLookupKeys } from '../keys';
import { defineEntity } from './define-entity';

/** A pre-computed retry score as stored (the PrecomputedScore of core/scoring, in the table's snake_case). */
export interface ScoreLookupEntry {
  /** The lookup key (core/scoring/lookup-key.ts). */
  readonly lookup_key: string;
  readonly score: number;
  readonly delay_hours: number;
  readonly confidence: number;
  readonly model_version: string;
  readonly reasoning?: string;
  readonly factors?: readonly ScoreFactor[];
  readonly updated_at: string;
}

/** The score of one lookup key: its own partition, under no merchant (keys.ts). */
export const scoreLookupEntity = defineEntity<ScoreLookupEntry>({
  name: ENTITY.scoreLookup,
  key: (entry) => scoreLookupKeys.entry(entry.lookup_key),
});
