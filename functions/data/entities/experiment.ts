import { type ExperimentRecord, experimentBodyOf } from '#core/experiments/experiment';
import { EXPERIMENT_ENTITY, experimentKeys } from '../keys';
import { defineEntity } from './define-entity';

const bodyOf = (experimentId: string): string => experimentBodyOf(experimentId) as string;

/** A recovery experiment. Not about a customer, so no erasure tag; no index. */
export const experimentEntity = defineEntity<ExperimentRecord>({
  name: EXPERIMENT_ENTITY.experiment,
  key: (experiment) => experimentKeys.experiment(experiment.merchant_id, bodyOf(experiment.id)),
});

/** One customer's variant in one experiment (the exposure), and whether a payment of theirs recovered since (the conversion). */
export interface ExperimentAssignment {
  readonly merchant_id: string;
  readonly experiment_id: string;
  readonly customer_id: string;
  readonly variant: string;
  readonly converted: boolean;
  readonly assigned_at: string;
  readonly converted_at: string | null;
}

/** Filed among the customer's data (GSI2), so erasure removes it (and the stream takes it out of the counters). */
export const experimentAssignmentEntity = defineEntity<ExperimentAssignment>({
  name: EXPERIMENT_ENTITY.assignment,
  key: (a) => experimentKeys.assignment(a.merchant_id, bodyOf(a.experiment_id), a.customer_id),
  indexes: (a) => experimentKeys.assignmentTag(a.merchant_id, a.customer_id, bodyOf(a.experiment_id)),
});
