import { createGroupHandler } from '#api/group-handler';
import { createEmailAbTest } from './create-email-ab-test';
import { evaluateEmailAbTest } from './evaluate-email-ab-test';
import { getEmailAbTest } from './get-email-ab-test';
import { emailRoutes } from './routes';

/** The email Lambda: dispatches its rows of the route table; rows not built yet answer 501. */
export const handler = createGroupHandler(emailRoutes, {
  createEmailAbTest,
  getEmailAbTest,
  evaluateEmailAbTest,
});
