import { createGroupHandler } from '#api/group-handler';
import { createTemplate } from './create-template';
import { deleteEmailSuppression } from './delete-email-suppression';
import { deleteTemplate } from './delete-template';
import { getEmailSuppressionStats } from './get-email-suppression-stats';
import { getTemplate } from './get-template';
import { listEmailSuppressions } from './list-email-suppressions';
import { listTemplates } from './list-templates';
import { previewTemplate } from './preview-template';
import { updateTemplate } from './update-template';
import { emailRoutes } from './routes';

/** The email Lambda: templates, their preview and the suppression list; the A/B test rows answer 501 until built. */
export const handler = createGroupHandler(emailRoutes, {
  previewTemplate,
  createTemplate,
  listTemplates,
  getTemplate,
  updateTemplate,
  deleteTemplate,
  listEmailSuppressions,
  getEmailSuppressionStats,
  deleteEmailSuppression,
});
