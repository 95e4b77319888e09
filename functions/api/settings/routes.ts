import { type RouteDef, READ, WRITE, v1 } from '#api/route-rows';
import { getQuietHoursSchemas, getRecoveryGoalSchemas, setQuietHoursSchemas, setRecoveryGoalSchemas } from './schemas';

/** The `settings` group's rows of the route table: its Lambda serves exactly these. */
export const settingsRoutes: readonly RouteDef[] = [
  v1('settings', 'GET', '/settings/quiet-hours', 'getQuietHours', READ, 'Quiet hours', { schemas: getQuietHoursSchemas }),
  v1('settings', 'POST', '/settings/quiet-hours', 'setQuietHours', WRITE, 'Set quiet hours', { schemas: setQuietHoursSchemas }),
  v1('settings', 'GET', '/settings/recovery-goal', 'getRecoveryGoal', READ, 'Recovery goal and progress', { schemas: getRecoveryGoalSchemas }),
  v1('settings', 'POST', '/settings/recovery-goal', 'setRecoveryGoal', WRITE, 'Set the recovery goal', { schemas: setRecoveryGoalSchemas }),
];
