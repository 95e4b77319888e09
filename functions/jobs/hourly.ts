import { advanceCampaignSteps } from './advance-campaign-steps';
import { createJobHandler } from './run-job';

// Tasks not listed here are added by the issues that build them; until then each is reported not_implemented.
export const handler = createJobHandler('hourly', {
  'advance-campaign-steps': (input) => advanceCampaignSteps(input),
});
