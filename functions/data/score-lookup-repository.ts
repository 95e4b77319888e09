import { BatchWriteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import type { PrecomputedScore, ScoreFactor, ScoreLookup } from '#core/scoring/types';
import { env } from '#shared/env';
import { documentClient } from './client';
import { type ScoreLookupEntry, scoreLookupEntity } from './entities/score-lookup';
import { scoreLookupKeys } from './keys';

/** BatchWriteItem's own limit. */
const BATCH_SIZE = 25;
/** Rounds of re-sending what BatchWriteItem left unprocessed before giving up. */
const MAX_ROUNDS = 8;

const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));

function entryOf(score: PrecomputedScore, now: string): ScoreLookupEntry {
  return {
    lookup_key: score.key,
    score: score.score,
    delay_hours: score.delayHours,
    confidence: score.confidence,
    model_version: score.modelVersion,
    ...(score.reasoning === undefined ? {} : { reasoning: score.reasoning }),
    ...(score.factors === undefined ? {} : { factors: score.factors }),
    updated_at: now,
  };
}

function scoreOf(entry: ScoreLookupEntry): PrecomputedScore {
  return {
    key: entry.lookup_key,
    score: entry.score,
    delayHours: entry.delay_hours,
    confidence: entry.confidence,
    modelVersion: entry.model_version,
    ...(typeof entry.reasoning === 'string' ? { reasoning: entry.reasoning } : {}),
    ...(Array.isArray(entry.factors) ? { factors: entry.factors as ScoreFactor[] } : {}),
  };
}

/** The pre-computed score of one lookup key (one GetItem), or undefined. */
export async function getPrecomputedScore(key: string): Promise<PrecomputedScore | undefined> {
  const { Item } = await documentClient.send(new GetCommand({ TableName: env.TABLE_NAME, Key: scoreLookupKeys.entry(key) }));
  return Item === undefined ? undefined : scoreOf(scoreLookupEntity.fromItem(Item));
}

/**
 * Writes pre-computed scores, replacing what their keys held: BatchWriteItem 25 at a time,
 * re-sending what comes back unprocessed with jittered backoff. A key given twice keeps its last
 * entry (BatchWriteItem refuses duplicate keys in one request). Returns how many keys were written;
 * throws when DynamoDB keeps items unprocessed after MAX_ROUNDS (the caller may send them again:
 * writes are idempotent).
 */
export async function putPrecomputedScores(scores: readonly PrecomputedScore[], now: Date = new Date()): Promise<number> {
  const at = now.toISOString();
  const byKey = new Map(scores.map((score) => [score.key, score]));
  const items = [...byKey.values()].map((score) => scoreLookupEntity.toItem(entryOf(score, at)));
  for (let start = 0; start < items.length; start += BATCH_SIZE) {
    let requests = items.slice(start, start + BATCH_SIZE).map((Item) => ({ PutRequest: { Item } }));
    for (let round = 0; requests.length > 0; round += 1) {
      if (round >= MAX_ROUNDS) throw new Error(`${requests.length} score lookup items stayed unprocessed after ${MAX_ROUNDS} rounds`);
      if (round > 0) await sleep(Math.min(1000, 20 * 2 ** round) * Math.random());
      const { UnprocessedItems } = await documentClient.send(new BatchWriteCommand({ RequestItems: { [env.TABLE_NAME]: requests } }));
      requests = (UnprocessedItems?.[env.TABLE_NAME] ?? []) as typeof requests;
    }
  }
  return items.length;
}

/** The ScoreLookup port over the table. */
export const scoreLookupRepository: ScoreLookup = { get: getPrecomputedScore };
