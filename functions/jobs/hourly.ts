import { recomputeRollups } from '#services/recompute-rollups';
import { advanceCampaignSteps } from './advance-campaign-steps';
import { createJobHandler } from './run-job';

// Tasks not listed here are added by the issues that build them; until then each is reported not_implemented.
export const handler = createJobHandler('hourly', {
  'advance-campaign-steps': (input) => advanceCampaignSteps(input),
  // Yesterday's rollups recomputed from their source items; drift is reported, never rewritten.
  'analytics-rollup': (input) => recomputeRollups(input.now),
});
