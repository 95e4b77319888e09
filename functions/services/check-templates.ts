import { ResourceNotFoundError, ValidationError } from '#core/errors';
import { type TemplateChannel, templateFitsChannel } from '#core/templates/template';
import { getTemplate } from '#data/template-repository';

/** A template a request names, the channel it will be sent on, and the request field naming it. */
export interface TemplateUse {
  readonly templateId: string;
  readonly channel: TemplateChannel;
  /** The field to name in an error (`steps.1.template_id`, `variants.0.template_id`). */
  readonly param: string;
}

/**
 * Refuses a request naming a template the merchant cannot use: none by that id among the
 * built-ins and its own (404 naming the field, as an unknown id elsewhere), or one that does not fit
 * the channel the step or variant sends on (422 naming the field; core/templates templateFitsChannel). Each distinct id is read once.
 */
export async function assertTemplatesUsable(merchantId: string, uses: readonly TemplateUse[]): Promise<void> {
  const ids = [...new Set(uses.map((use) => use.templateId))];
  const found = new Map(await Promise.all(ids.map(async (id) => [id, await getTemplate(merchantId, id)] as const)));
  for (const use of uses) {
    const template = found.get(use.templateId);
    if (template === undefined) throw new ResourceNotFoundError(`No template ${use.templateId}.`, { param: use.param });
    if (!templateFitsChannel(template.channel, use.channel)) {
      throw new ValidationError(`Template ${use.templateId} is for ${template.channel}; this ${use.channel} message needs a ${use.channel} template.`, {
        param: use.param,
      });
    }
  }
}
