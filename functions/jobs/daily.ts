import { recheckCancelSaves } from '#services/recheck-cancel-saves';
import { createJobHandler } from './run-job';

// The tasks are added by the issues that build them; until then each is reported not_implemented.
export const handler = createJobHandler('daily', {
  'cancel-save-recheck': (input) => recheckCancelSaves(input.now),
});
