import { putRecoveryGoal } from '#data/settings-repository';
import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { recoveryGoalView } from './recovery-goal-view';
import { setRecoveryGoalSchemas } from './schemas';

/**
 * POST /api/v1/settings/recovery-goal (B): sets the target rate (0-1) and, when given, the period;
 * answers 200 with the goal and its progress, as GET does.
 */
export const setRecoveryGoal = defineOperation({ auth: 'api_key', schemas: setRecoveryGoalSchemas }, async ({ body, principal, requestId }) => {
  const merchantId = principal.merchantId;
  const goal = await putRecoveryGoal(merchantId, { targetRate: body.target_rate, period: body.period });
  return { body: envelope(await recoveryGoalView(merchantId, goal), requestId, merchantId) };
});
