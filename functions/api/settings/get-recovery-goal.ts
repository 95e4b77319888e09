import { readRecoveryGoal } from '#data/settings-repository';
import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { recoveryGoalView } from './recovery-goal-view';
import { getRecoveryGoalSchemas } from './schemas';

/**
 * GET /api/v1/settings/recovery-goal (B): the target and the progress of the current calendar
 * period. Before a goal is set: 200 with `target_rate: null`, `on_track: null` and the monthly
 * progress, which is there whatever the goal.
 */
export const getRecoveryGoal = defineOperation({ auth: 'api_key', schemas: getRecoveryGoalSchemas }, async ({ principal, requestId }) => {
  const merchantId = principal.merchantId;
  return { body: envelope(await recoveryGoalView(merchantId, await readRecoveryGoal(merchantId)), requestId, merchantId) };
});
