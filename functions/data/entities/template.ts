import { idBody } from '#core/ids';
import { TEMPLATE_ID_PREFIX, type TemplateRecord } from '#core/templates/template';
import { TEMPLATE_ENTITY, templateKeys } from '../keys';
import { defineEntity } from './define-entity';

/** The key body of a merchant template's id (`tmpl_<body>`). */
export const templateBodyOf = (id: string): string | undefined => idBody(id, TEMPLATE_ID_PREFIX);

/**
 * A merchant's own template (built-ins are code: core/templates/built-in.ts). Nothing in it is
 * about a customer, so it carries no erasure tag. `version` is kept for the update's condition.
 */
export const templateEntity = defineEntity<TemplateRecord & { readonly version: number }, void, TemplateRecord>({
  name: TEMPLATE_ENTITY.template,
  key: (template) => {
    const body = templateBodyOf(template.id);
    if (template.merchant_id === null || body === undefined) throw new Error(`Only merchant templates are stored, not ${template.id}`);
    return templateKeys.template(template.merchant_id, body);
  },
  internal: ['version'],
});
