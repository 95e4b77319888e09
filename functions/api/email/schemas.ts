import * as z from '#shared/zod';
import { SUPPRESSION_REASONS } from '#core/suppressions';
import { PLACEHOLDERS } from '#core/templates/placeholders';
import { TEMPLATE_CHANNELS, TEMPLATE_LIMITS, WHATSAPP_CONTENT_SID } from '#core/templates/template';
import { offsetPagingQuery } from '#api/pipeline/paging-query';
import { DateTime, OffsetPagination, ResponseMeta } from '#api/envelope-schemas';

const Id = z.string().check(z.minLength(1), z.maxLength(255));

/** A copy of the schema with a description for the OpenAPI document. */
function described<T extends z.ZodMiniType>(schema: T, description: string): T {
  const copy = schema.clone() as T;
  z.globalRegistry.add(copy, { description });
  return copy;
}

// ---- Templates -------------------------------------------------------------------------------

const PLACEHOLDER_NOTE = `Placeholders are written {{name}} (spaces allowed inside the braces) with one of: ${PLACEHOLDERS.join(', ')}. Anything else is refused with 422.`;

const TemplateName = z.string().check(z.trim(), z.minLength(1), z.maxLength(TEMPLATE_LIMITS.name));
const SubjectTemplate = described(
  z
    .string()
    .check(
      z.trim(),
      z.minLength(1),
      z.maxLength(TEMPLATE_LIMITS.subject),
      z.regex(/^[^\p{Cc}\u2028\u2029]*$/u, 'must be one line of text without control characters'),
    ),
  `Email only: the subject line, 1-200 characters. ${PLACEHOLDER_NOTE}`,
);
const HtmlTemplate = described(
  z.string().check(z.minLength(1), z.maxLength(TEMPLATE_LIMITS.html)),
  `Email only: the HTML part. Values are HTML-escaped where they are substituted. ${PLACEHOLDER_NOTE}`,
);
const TextTemplate = described(
  z.string().check(z.minLength(1), z.maxLength(TEMPLATE_LIMITS.emailText)),
  `The plain-text part of an email, or the message of an SMS or WhatsApp template (at most 1,600 characters). ${PLACEHOLDER_NOTE}`,
);
const ContentSid = described(
  z.string().check(z.regex(WHATSAPP_CONTENT_SID, 'must be a Twilio ContentSid: HX followed by 32 lowercase hex digits')),
  "WhatsApp only: Twilio's ContentSid of the approved template, needed to message a customer outside WhatsApp's 24-hour window.",
);
const Channel = z.enum(TEMPLATE_CHANNELS);

export const Template = z.object({
  id: z.string(),
  name: z.string(),
  channel: Channel,
  subject: z.nullable(z.string()),
  html: z.nullable(z.string()),
  text: z.string(),
  whatsapp_content_sid: z.nullable(z.string()),
  placeholders: described(z.array(z.enum(PLACEHOLDERS)), 'The placeholders the template uses, derived from subject, html and text.'),
  built_in: described(z.boolean(), "True for the service's own templates (ids such as `tmpl_soft_decline_1`): read-only."),
  created_at: DateTime,
  updated_at: DateTime,
});

export const TemplatePreview = z.object({
  id: z.string(),
  name: z.string(),
  channel: Channel,
  subject: described(z.nullable(z.string()), 'The rendered subject; null for SMS and WhatsApp templates.'),
  html_preview: described(z.nullable(z.string()), 'The rendered HTML part; null for SMS and WhatsApp templates.'),
  text_preview: z.string(),
  placeholders: described(z.array(z.enum(PLACEHOLDERS)), 'Every placeholder a template may use (the 13 of the spec).'),
});

const TemplateIdParams = z.object({ id: Id });
const TemplateEnvelope = z.object({ data: Template, meta: ResponseMeta });

export const createTemplateSchemas = {
  body: z.object({
    name: TemplateName,
    channel: z._default(Channel, 'email'),
    subject: z.optional(z.nullable(SubjectTemplate)),
    html: z.optional(z.nullable(HtmlTemplate)),
    text: TextTemplate,
    whatsapp_content_sid: z.optional(z.nullable(ContentSid)),
  }),
  responses: { 201: TemplateEnvelope },
} as const;

export const listTemplatesSchemas = {
  query: z.object({ ...offsetPagingQuery }),
  responses: { 200: z.object({ data: z.array(Template), pagination: OffsetPagination, meta: ResponseMeta }) },
} as const;

export const getTemplateSchemas = {
  params: TemplateIdParams,
  responses: { 200: TemplateEnvelope },
} as const;

/** Fields left out keep their value; null clears subject, html or whatsapp_content_sid. The channel cannot change. */
export const updateTemplateSchemas = {
  params: TemplateIdParams,
  body: z.object({
    name: z.optional(TemplateName),
    channel: z.optional(Channel),
    subject: z.optional(z.nullable(SubjectTemplate)),
    html: z.optional(z.nullable(HtmlTemplate)),
    text: z.optional(TextTemplate),
    whatsapp_content_sid: z.optional(z.nullable(ContentSid)),
  }),
  responses: { 200: TemplateEnvelope },
} as const;

export const deleteTemplateSchemas = {
  params: TemplateIdParams,
  responses: { 200: z.object({ data: z.object({ id: z.string(), deleted: z.boolean() }), meta: ResponseMeta }) },
} as const;

export const previewTemplateSchemas = {
  params: TemplateIdParams,
  responses: { 200: z.object({ data: TemplatePreview, meta: ResponseMeta }) },
} as const;

// ---- Suppressions ----------------------------------------------------------------------------

const Reason = z.enum(SUPPRESSION_REASONS);

export const Suppression = z.object({
  email: z.string(),
  reason: Reason,
  customer_id: z.string(),
  source_message_id: described(z.nullable(z.string()), 'The message whose bounce, complaint or unsubscribe added the address; null when added by hand.'),
  active: described(z.boolean(), 'False once the suppression is lifted: the address is emailed again.'),
  created_at: described(DateTime, 'When the address was (last) suppressed.'),
  lifted_at: z.nullable(DateTime),
});

export const SuppressionStats = z.object({
  total: described(z.number().check(z.int()), 'Addresses on the list, suppressed or lifted.'),
  active: z.number().check(z.int()),
  lifted: z.number().check(z.int()),
  by_reason: described(
    z.object({
      hard_bounce: z.number().check(z.int()),
      complaint: z.number().check(z.int()),
      unsubscribe: z.number().check(z.int()),
      manual: z.number().check(z.int()),
    }),
    'Suppressions in force, by reason.',
  ),
  added_last_30_days: described(z.number().check(z.int()), 'Suppressions made (first time or again) in the last 30 UTC days, today included.'),
});

export const listEmailSuppressionsSchemas = {
  query: z.object({
    search: z.optional(
      described(
        z.string().check(
          z.trim(),
          z.minLength(1),
          z.refine((value) => Buffer.byteLength(value, 'utf8') <= 320, 'must be at most 320 bytes'),
        ),
        'Start of the address, any case.',
      ),
    ),
    reason: z.optional(Reason),
    active_only: z._default(described(z.enum(['true', 'false']), '`true` (the default): suppressions in force only; `false`: lifted ones too.'), 'true'),
    ...offsetPagingQuery,
  }),
  responses: { 200: z.object({ data: z.array(Suppression), pagination: OffsetPagination, meta: ResponseMeta }) },
} as const;

export const getEmailSuppressionStatsSchemas = {
  responses: { 200: z.object({ data: SuppressionStats, meta: ResponseMeta }) },
} as const;

export const deleteEmailSuppressionSchemas = {
  params: z.object({ email: z.string().check(z.minLength(1), z.maxLength(320)) }),
  responses: { 200: z.object({ data: Suppression, meta: ResponseMeta }) },
} as const;
