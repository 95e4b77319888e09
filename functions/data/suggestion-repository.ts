import type { SuggestionSource } from '#core/experiments/suggestions';
import { env } from '#shared/env';
import { queryAll } from './experiment-repository';
import { conditions, EXPERIMENT_ENTITY, experimentKeys } from './keys';

/** What became of a suggestion: applied (as an experiment or directly) or dismissed. Written once. */
export interface SuggestionDecision {
  readonly suggestion_id: string;
  readonly status: 'applied' | 'dismissed';
  readonly mode: 'experiment' | 'direct' | null;
  readonly experiment_id: string | null;
  /** Who proposed it when it was decided (null for decisions recorded before sources were). The decision stands whatever they say later. */
  readonly source: SuggestionSource | null;
  readonly decided_at: string;
}

/** The merchant's decided suggestions, by id (one Query; a merchant decides a handful). */
export async function listSuggestionDecisions(merchantId: string): Promise<Map<string, SuggestionDecision>> {
  const items = await queryAll(experimentKeys.suggestionPrefix(merchantId));
  return new Map(
    items.map((item) => [
      item.suggestion_id as string,
      {
        suggestion_id: item.suggestion_id as string,
        status: item.status as SuggestionDecision['status'],
        mode: (item.mode ?? null) as SuggestionDecision['mode'],
        experiment_id: (item.experiment_id ?? null) as string | null,
        source: (item.source ?? null) as SuggestionSource | null,
        decided_at: item.decided_at as string,
      },
    ]),
  );
}

/** The put of a decision, for the transaction of what it does; fails when the suggestion was already decided. */
export const suggestionDecisionPut = (merchantId: string, decision: SuggestionDecision) => ({
  Put: {
    TableName: env.TABLE_NAME,
    Item: {
      ...experimentKeys.suggestion(merchantId, decision.suggestion_id),
      entity: EXPERIMENT_ENTITY.suggestionDecision,
      merchant_id: merchantId,
      ...decision,
    },
    ConditionExpression: conditions.absent,
  },
});
