import { InvalidRequestError, ValidationError } from '../errors';
import { timeOrderedId } from '../ids';
import { describeProblem, type PlaceholderName, placeholdersUsed, templatePlaceholderProblems } from './placeholders';

/** Where a template is sent. */
export const TEMPLATE_CHANNELS = ['email', 'sms', 'whatsapp'] as const;
export type TemplateChannel = (typeof TEMPLATE_CHANNELS)[number];

/** Bounds of a template's fields (characters). */
export const TEMPLATE_LIMITS = {
  name: 200,
  subject: 200,
  html: 100_000,
  emailText: 20_000,
  /** Twilio's limit of one message body (SMS, concatenated, and WhatsApp). */
  messageText: 1_600,
} as const;

/** Twilio's id of an approved WhatsApp content template, needed outside the 24-hour window. */
export const WHATSAPP_CONTENT_SID = /^HX[0-9a-f]{32}$/;

/**
 * A message template: a merchant's own (`tmpl_<time-ordered body>`, merchant_id set) or one of the
 * built-ins (core/templates/built-in.ts; merchant_id null, read-only). Email templates have a
 * subject, an html part and a text part; SMS and WhatsApp templates a text only.
 */
export interface TemplateRecord {
  readonly id: string;
  readonly merchant_id: string | null;
  readonly name: string;
  readonly channel: TemplateChannel;
  /** Email only (1-200 characters, one line); null for SMS and WhatsApp. */
  readonly subject: string | null;
  /** Email only; null for SMS and WhatsApp. */
  readonly html: string | null;
  readonly text: string;
  /** WhatsApp only: Twilio's approved ContentSid (`HX` + 32 hex). */
  readonly whatsapp_content_sid: string | null;
  /** The placeholders it uses, derived from subject, html and text. */
  readonly placeholders: readonly PlaceholderName[];
  readonly built_in: boolean;
  readonly created_at: string;
  readonly updated_at: string;
}

/** What a merchant writes: the template without what the service derives. */
export interface TemplateContent {
  readonly name: string;
  readonly channel: TemplateChannel;
  readonly subject: string | null;
  readonly html: string | null;
  readonly text: string;
  readonly whatsapp_content_sid: string | null;
}

export const TEMPLATE_ID_PREFIX = 'tmpl';
export const newTemplateId = (now: Date = new Date()): string => `${TEMPLATE_ID_PREFIX}_${timeOrderedId(now)}`;

const PLACEHOLDER_FIELDS = ['subject', 'html', 'text'] as const;

/**
 * Checks a template's content as a whole, beyond what each field's own schema checks, and throws
 * with `param` naming the field:
 * - email needs `subject` and `html` (400 invalid_request when absent) and takes no
 *   `whatsapp_content_sid` (422); SMS and WhatsApp take no `subject` or `html` (422), and their
 *   text is at most 1,600 characters (422); only WhatsApp takes `whatsapp_content_sid`;
 * - an unknown placeholder or an unclosed `{{` in subject, html or text: 422 validation_error,
 *   the message listing each problem with its line and column.
 */
export function checkTemplateContent(content: TemplateContent): void {
  if (content.channel === 'email') {
    if (content.subject === null) throw new InvalidRequestError('An email template needs a subject.', { param: 'subject' });
    if (content.html === null) throw new InvalidRequestError('An email template needs an html part.', { param: 'html' });
    if (content.whatsapp_content_sid !== null)
      throw new ValidationError('Only WhatsApp templates take a whatsapp_content_sid.', { param: 'whatsapp_content_sid' });
  } else {
    if (content.subject !== null) throw new ValidationError(`A ${content.channel} template has no subject.`, { param: 'subject' });
    if (content.html !== null) throw new ValidationError(`A ${content.channel} template has no html part: its text is the message.`, { param: 'html' });
    if (content.text.length > TEMPLATE_LIMITS.messageText)
      throw new ValidationError(`A ${content.channel} template's text is at most ${TEMPLATE_LIMITS.messageText} characters.`, { param: 'text' });
    if (content.channel === 'sms' && content.whatsapp_content_sid !== null)
      throw new ValidationError('Only WhatsApp templates take a whatsapp_content_sid.', { param: 'whatsapp_content_sid' });
  }
  for (const field of PLACEHOLDER_FIELDS) {
    const source = content[field];
    if (source === null) continue;
    const problems = templatePlaceholderProblems(source);
    if (problems.length === 0) continue;
    const shown = problems.slice(0, 5).map(describeProblem).join('; ');
    const more = problems.length > 5 ? ` (and ${problems.length - 5} more)` : '';
    throw new ValidationError(`The ${field} has ${shown}${more}. Placeholders are written {{name}} with one of the 13 names listed in the docs.`, {
      param: field,
    });
  }
}

/** A merchant's new template from checked content. */
export function newTemplate(merchantId: string, content: TemplateContent, now: Date = new Date()): TemplateRecord {
  checkTemplateContent(content);
  const at = now.toISOString();
  return {
    id: newTemplateId(now),
    merchant_id: merchantId,
    ...content,
    placeholders: placeholdersUsed(content.subject, content.html, content.text),
    built_in: false,
    created_at: at,
    updated_at: at,
  };
}

/** The template with new content (checked), its placeholders derived again. */
export function updatedTemplate(template: TemplateRecord, content: TemplateContent, now: Date = new Date()): TemplateRecord {
  checkTemplateContent(content);
  return { ...template, ...content, placeholders: placeholdersUsed(content.subject, content.html, content.text), updated_at: now.toISOString() };
}

/**
 * Whether a template can be sent on a channel: an email template by email only; an SMS or WhatsApp
 * template (plain text) on either of the two text channels.
 */
export const templateFitsChannel = (template: TemplateChannel, channel: TemplateChannel): boolean =>
  template === channel || (template !== 'email' && channel !== 'email');
