/** How templates and suppressions leave the API, typed against the response schemas (schemas.ts). */
import type * as z from '#shared/zod';
import type { TemplateRecord } from '#core/templates/template';
import type { SuppressionRecord } from '#data/suppression-repository';
import type { Suppression, Template } from './schemas';

export const templateView = (t: TemplateRecord): z.output<typeof Template> => ({
  id: t.id,
  name: t.name,
  channel: t.channel,
  subject: t.subject,
  html: t.html,
  text: t.text,
  whatsapp_content_sid: t.whatsapp_content_sid,
  placeholders: [...t.placeholders],
  built_in: t.built_in,
  created_at: t.created_at,
  updated_at: t.updated_at,
});

export const suppressionView = (s: SuppressionRecord): z.output<typeof Suppression> => ({
  email: s.email,
  reason: s.reason,
  customer_id: s.customer_id,
  source_message_id: s.source_message_id ?? null,
  active: s.lifted_at === undefined,
  created_at: s.created_at,
  lifted_at: s.lifted_at ?? null,
});
