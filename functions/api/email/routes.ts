import { type RouteDef, READ, WRITE, v1 } from '#api/route-rows';
import { createEmailAbTestSchemas, evaluateEmailAbTestSchemas, getEmailAbTestSchemas } from './ab-test-schemas';

/** The `email` group's rows of the route table: its Lambda serves exactly these. */
export const emailRoutes: readonly RouteDef[] = [
  v1('email', 'GET', '/templates/preview/{id}', 'previewTemplate', READ, 'Preview an email template'),
  v1('email', 'GET', '/email/suppressions', 'listEmailSuppressions', ['email', 'read'], 'List email suppressions'),
  v1('email', 'GET', '/email/suppressions/stats', 'getEmailSuppressionStats', ['email', 'read'], 'Suppression statistics'),
  v1('email', 'DELETE', '/email/suppressions/{email}', 'deleteEmailSuppression', ['email', 'write'], 'Lift a suppression'),
  v1('email', 'POST', '/email/ab-test', 'createEmailAbTest', WRITE, 'Create an email A/B test', { schemas: createEmailAbTestSchemas }),
  v1('email', 'GET', '/email/ab-test/{campaign_id}', 'getEmailAbTest', READ, 'An email A/B test and its results', { schemas: getEmailAbTestSchemas }),
  v1('email', 'POST', '/email/ab-test/{campaign_id}/evaluate', 'evaluateEmailAbTest', WRITE, 'Evaluate and maybe promote the winner', {
    schemas: evaluateEmailAbTestSchemas,
  }),
];
