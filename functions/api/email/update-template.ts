import { ResourceNotFoundError, StateConflictError, ValidationError } from '#core/errors';
import { builtInTemplate } from '#core/templates/built-in';
import { updatedTemplate } from '#core/templates/template';
import { updateTemplate as saveUpdate } from '#data/template-repository';
import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { updateTemplateSchemas } from './schemas';
import { templateView } from './views';

/**
 * PUT /api/v1/templates/{id}: changes a merchant's template. Fields left out keep their value;
 * `null` clears subject, html or whatsapp_content_sid; the result is checked as a whole, as on
 * create (422 with `param` for an unknown placeholder). The channel cannot change (422
 * `param: channel`): campaign steps that use the template rely on it. Built-ins are read-only:
 * 409 `state_conflict` (copy one with POST /templates instead). 404 for any other id.
 */
export const updateTemplate = defineOperation({ auth: 'api_key', schemas: updateTemplateSchemas }, async ({ params, body, principal, requestId }) => {
  const merchantId = principal.merchantId;
  if (builtInTemplate(params.id) !== undefined)
    throw new StateConflictError(`Template ${params.id} is built in and read-only; save a copy with POST /templates.`);
  const template = await saveUpdate(merchantId, params.id, (current) => {
    if (body.channel !== undefined && body.channel !== current.channel)
      throw new ValidationError(`The channel of a template cannot change (it is ${current.channel}); create a new template instead.`, { param: 'channel' });
    return updatedTemplate(current, {
      name: body.name ?? current.name,
      channel: current.channel,
      subject: body.subject === undefined ? current.subject : body.subject,
      html: body.html === undefined ? current.html : body.html,
      text: body.text ?? current.text,
      whatsapp_content_sid: body.whatsapp_content_sid === undefined ? current.whatsapp_content_sid : body.whatsapp_content_sid,
    });
  });
  if (template === undefined) throw new ResourceNotFoundError(`No template ${params.id}.`, { param: 'id' });
  return { body: envelope(templateView(template), requestId, merchantId) };
});
