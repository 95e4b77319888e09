import { isOnTrack } from '#core/recovery-goal';
import { recoveryProgress } from '#data/recovery-period-counters';
import type { RecoveryGoalRecord } from '#data/settings-repository';

/** The goal as both recovery-goal routes answer it: the record, the current period's progress and whether it is met. */
export async function recoveryGoalView(merchantId: string, goal: RecoveryGoalRecord, now: Date = new Date()) {
  const progress = await recoveryProgress(merchantId, goal.period, now);
  return { target_rate: goal.target_rate, period: goal.period, progress, on_track: isOnTrack(goal.target_rate, progress), updated_at: goal.updated_at };
}
