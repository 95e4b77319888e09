import { createGroupHandler } from '#api/group-handler';
import { apiKeyAuth } from '#api/pipeline/api-key';
import { settingsRoutes } from './routes';
import { getQuietHours } from './get-quiet-hours';
import { getRecoveryGoal } from './get-recovery-goal';
import { setQuietHours } from './set-quiet-hours';
import { setRecoveryGoal } from './set-recovery-goal';

/** The settings Lambda: quiet hours and the recovery goal with its progress. */
export const handler = createGroupHandler(settingsRoutes, { getQuietHours, setQuietHours, getRecoveryGoal, setRecoveryGoal }, apiKeyAuth);
