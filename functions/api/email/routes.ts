import { type RouteDef, READ, WRITE, v1 } from '#api/route-rows';
import { createEmailAbTestSchemas, evaluateEmailAbTestSchemas, getEmailAbTestSchemas } from './ab-test-schemas';
import {
  createTemplateSchemas,
  deleteEmailSuppressionSchemas,
  deleteTemplateSchemas,
  getEmailSuppressionStatsSchemas,
  getTemplateSchemas,
  listEmailSuppressionsSchemas,
  listTemplatesSchemas,
  previewTemplateSchemas,
  updateTemplateSchemas,
} from './schemas';

/**
 * The `email` group's rows of the route table: its Lambda serves exactly these. The spec has only
 * the preview of templates; the CRUD rows let merchants save the templates their campaigns and A/B
 * variants name (Stripe-like: POST creates, PUT changes, DELETE removes).
 */
export const emailRoutes: readonly RouteDef[] = [
  v1('email', 'GET', '/templates/preview/{id}', 'previewTemplate', READ, 'Preview an email template', { schemas: previewTemplateSchemas }),
  v1('email', 'POST', '/templates', 'createTemplate', WRITE, 'Save a message template', { schemas: createTemplateSchemas }),
  v1('email', 'GET', '/templates', 'listTemplates', READ, 'List message templates, built-ins included', { schemas: listTemplatesSchemas }),
  v1('email', 'GET', '/templates/{id}', 'getTemplate', READ, 'One message template', { schemas: getTemplateSchemas }),
  v1('email', 'PUT', '/templates/{id}', 'updateTemplate', WRITE, 'Change a message template', { schemas: updateTemplateSchemas }),
  v1('email', 'DELETE', '/templates/{id}', 'deleteTemplate', WRITE, 'Delete a message template', { schemas: deleteTemplateSchemas }),
  v1('email', 'GET', '/email/suppressions', 'listEmailSuppressions', ['email', 'read'], 'List email suppressions', {
    schemas: listEmailSuppressionsSchemas,
  }),
  v1('email', 'GET', '/email/suppressions/stats', 'getEmailSuppressionStats', ['email', 'read'], 'Suppression statistics', {
    schemas: getEmailSuppressionStatsSchemas,
  }),
  v1('email', 'DELETE', '/email/suppressions/{email}', 'deleteEmailSuppression', ['email', 'write'], 'Lift a suppression', {
    schemas: deleteEmailSuppressionSchemas,
  }),
  v1('email', 'POST', '/email/ab-test', 'createEmailAbTest', WRITE, 'Create an email A/B test', { schemas: createEmailAbTestSchemas }),
  v1('email', 'GET', '/email/ab-test/{campaign_id}', 'getEmailAbTest', READ, 'An email A/B test and its results', { schemas: getEmailAbTestSchemas }),
  v1('email', 'POST', '/email/ab-test/{campaign_id}/evaluate', 'evaluateEmailAbTest', WRITE, 'Evaluate and maybe promote the winner', {
    schemas: evaluateEmailAbTestSchemas,
  }),
];
