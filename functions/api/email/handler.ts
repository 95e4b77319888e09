import { createGroupHandler } from '#api/group-handler';
import { apiKeyAuth } from '#api/pipeline/api-key';
import { createEmailAbTest } from './create-email-ab-test';
import { createTemplate } from './create-template';
import { deleteEmailSuppression } from './delete-email-suppression';
import { deleteTemplate } from './delete-template';
import { evaluateEmailAbTest } from './evaluate-email-ab-test';
import { getEmailAbTest } from './get-email-ab-test';
import { getEmailSuppressionStats } from './get-email-suppression-stats';
import { getTemplate } from './get-template';
import { listEmailSuppressions } from './list-email-suppressions';
import { listTemplates } from './list-templates';
import { previewTemplate } from './preview-template';
import { updateTemplate } from './update-template';
import { emailRoutes } from './routes';

/** The email Lambda: templates and their preview, the suppression list, and email A/B tests. */
export const handler = createGroupHandler(
  emailRoutes,
  {
    previewTemplate,
    createTemplate,
    listTemplates,
    getTemplate,
    updateTemplate,
    deleteTemplate,
    listEmailSuppressions,
    getEmailSuppressionStats,
    deleteEmailSuppression,
    createEmailAbTest,
    getEmailAbTest,
    evaluateEmailAbTest,
  },
  apiKeyAuth,
);
