import { newTemplate } from '#core/templates/template';
import { createTemplate as saveTemplate } from '#data/template-repository';
import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { createTemplateSchemas } from './schemas';
import { templateView } from './views';

/**
 * POST /api/v1/templates: saves a merchant's template (`tmpl_…`) for campaign steps, A/B variants
 * and manual dunning; 201 with the template and the placeholders it uses. An unknown placeholder
 * or an unclosed `{{` is 422 `validation_error` naming the field (`subject`, `html`, `text`); an
 * email template without subject or html is 400 with `param`. Nothing is written when refused.
 */
export const createTemplate = defineOperation({ auth: 'api_key', schemas: createTemplateSchemas }, async ({ body, principal, requestId }) => {
  const merchantId = principal.merchantId;
  const template = newTemplate(merchantId, {
    name: body.name,
    channel: body.channel,
    subject: body.subject ?? null,
    html: body.html ?? null,
    text: body.text,
    whatsapp_content_sid: body.whatsapp_content_sid ?? null,
  });
  await saveTemplate(template);
  return { statusCode: 201, body: envelope(templateView(template), requestId, merchantId) };
});
