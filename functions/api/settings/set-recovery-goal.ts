import { putRecoveryGoal } from '#data/settings-repository';
import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { recoveryGoalView } from './recovery-goal-view';
import { setRecoveryGoalSchemas } from './schemas';

/** Six decimal places: a millionth of a rate is finer than any goal needs. */
const RATE_SCALE = 1_000_000;

/**
 * POST /api/v1/settings/recovery-goal (B): sets the target rate (0-1) and, when given, the period;
 * answers 200 with the goal and its progress, as GET does. The rate is kept to six decimal places:
 * a JSON number such as 3.5e-217 is a valid rate to zod, but beyond what a DynamoDB number holds
 * (magnitudes from 1e-130), so storing it as sent failed with a 500 (found by `npm run reliability`).
 */
export const setRecoveryGoal = defineOperation({ auth: 'api_key', schemas: setRecoveryGoalSchemas }, async ({ body, principal, requestId }) => {
  const merchantId = principal.merchantId;
  const goal = await putRecoveryGoal(merchantId, { targetRate: Math.round(body.target_rate * RATE_SCALE) / RATE_SCALE, period: body.period });
  return { body: envelope(await recoveryGoalView(merchantId, goal), requestId, merchantId) };
});
