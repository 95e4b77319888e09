import { experimentBodyOf } from '#core/experiments/experiment';
import { EXPERIMENT_ENTITY, experimentKeys } from '../keys';
import type { Projection } from './projection';

/**
 * An experiment's per-variant counters (`COUNT#XP#<experiment>#<variant>`, read by GET
 * /experiments/{id}/results): every assignment item is one exposure of its variant, and one
 * conversion once `converted` (a payment of the customer recovered after the assignment). Results
 * read one item per variant, whatever the number of assignments.
 */
export const experimentCountersProjection: Projection = (item) => {
  if (item.entity !== EXPERIMENT_ENTITY.assignment) return [];
  const { merchant_id, experiment_id, variant } = item;
  if (typeof merchant_id !== 'string' || typeof experiment_id !== 'string' || typeof variant !== 'string') return [];
  const body = experimentBodyOf(experiment_id);
  if (body === undefined) return [];
  return [
    {
      key: experimentKeys.variantCounters(merchant_id, body, variant),
      counters: { exposures: 1, conversions: item.converted === true ? 1 : 0 },
      attributes: { entity: EXPERIMENT_ENTITY.variantCounters, experiment_id, variant },
    },
  ];
};
