import { lookupKeyOf } from '#core/scoring/lookup-key';
import type { PrecomputedScore } from '#core/scoring/types';
import { putPrecomputedScores } from '#data/score-lookup-repository';
import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { updateScoreLookupSchemas } from './schemas';

/**
 * POST /api/internal/scoring/update-lookup (shared cron secret): seeds or replaces pre-computed
 * retry scores, the lgbm tier of POST /scoring/retry. The pipeline checks the secret first (401,
 * nothing read or written), then the body. Each entry's key is
 * built from its decline code, attempt bucket, amount bucket and currency, and the entries are
 * written 25 at a time. Answers `{ data: { received, written, keys }, meta }`.
 */
export const updateScoreLookup = defineOperation({ auth: 'cron_secret', schemas: updateScoreLookupSchemas }, async ({ body, requestId }) => {
  const scores: PrecomputedScore[] = body.entries.map((entry) => ({
    key: lookupKeyOf({ declineCode: entry.decline_code, attemptBucket: entry.attempt_bucket, amountBucket: entry.amount_bucket, currency: entry.currency }),
    score: entry.score,
    delayHours: entry.delay_hours,
    confidence: entry.confidence,
    modelVersion: entry.model_version,
    ...(entry.reasoning === undefined ? {} : { reasoning: entry.reasoning }),
    ...(entry.factors === undefined ? {} : { factors: entry.factors }),
  }));
  const written = await putPrecomputedScores(scores);
  return { body: envelope({ received: scores.length, written, keys: [...new Set(scores.map((score) => score.key))] }, requestId) };
});
