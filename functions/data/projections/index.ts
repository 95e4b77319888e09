import { CANCEL_FLOW_ENTITY, ENTITY, EXPERIMENT_ENTITY } from '../keys';
import { cancelFlowStatsProjection } from './cancel-flow-stats';
import { campaignRollupsProjection } from './campaign-rollups';
import { customerCountersProjection } from './customer-counters';
import { experimentCountersProjection } from './experiment-counters';
import { messageRollups } from './message-rollups';
import { openStateProjection } from './open-state';
import { paymentCountersProjection } from './payment-counters';
import { paymentRollupsProjection } from './payment-rollups';
import type { Projection } from './projection';
import { recoveryPeriodProjection } from './recovery-period-counters';

/**
 * Every projection the table-stream consumer applies (functions/consumers/table-stream.ts) and
 * the hourly recompute checks: one line each.
 */
export const projections: readonly Projection[] = [
  paymentCountersProjection,
  customerCountersProjection,
  recoveryPeriodProjection,
  paymentRollupsProjection,
  campaignRollupsProjection,
  openStateProjection,
  messageRollups,
  cancelFlowStatsProjection,
  experimentCountersProjection,
];

/**
 * The `entity` of every item some projection counts: the stream's event source mapping invokes
 * the consumer only for records whose old or new image has one of them (lib/constructs/table-stream-consumer.ts).
 * A projection counting another entity adds it here.
 */
export const projectedEntities: readonly string[] = [ENTITY.payment, ENTITY.customer, ENTITY.message, CANCEL_FLOW_ENTITY.session, EXPERIMENT_ENTITY.assignment];
