import { type PlaceholderName, parseTemplate } from './placeholders';
import type { TemplateChannel } from './template';

/** The 13 values a template is rendered with (placeholderValuesFor); a missing one renders as ''. */
export type PlaceholderValues = Readonly<Partial<Record<PlaceholderName, string>>>;

/** What renderTemplate reads of a template. */
export interface RenderableTemplate {
  readonly channel: TemplateChannel;
  readonly subject?: string | null;
  readonly html?: string | null;
  readonly text: string;
}

export interface RenderedEmailParts {
  readonly subject: string;
  readonly html: string;
  readonly text: string;
}

export interface RenderedTextMessage {
  readonly text: string;
}

const HTML_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text safe inside HTML element content and quoted attribute values. */
export const escapeHtml = (value: string): string => value.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character] ?? character);

/**
 * One line for an email header: control characters (CR and LF first: header injection), line and
 * paragraph separators removed, each run replaced by one space so that words stay apart, then trimmed.
 */
export const headerSafe = (value: string): string =>
  value
    .replace(/[\p{Cc}\u2028\u2029]+/gu, ' ')
    .replace(/ {2,}/g, ' ')
    .trim();

/**
 * Plain substitution: each known placeholder becomes its value, passed through `encode`. The
 * value is looked up with Object.hasOwn on the caller's record, by a name already checked against
 * the 13, so no name reaches the prototype chain. Unknown tokens (refused when a template is
 * saved) render as '', an unclosed `{{` as its literal text (encoded). An empty value before
 * punctuation drops the space in front of it ("Hello {{customer_name}}," → "Hello,").
 */
function substitute(source: string, values: PlaceholderValues, encode: (text: string) => string): string {
  let out = '';
  let emptied = false;
  for (const part of parseTemplate(source)) {
    if (part.kind === 'text') {
      // An empty value takes the space before it along when punctuation follows: "Hello {{customer_name}},"
      // for a customer without a name reads "Hello," rather than "Hello ,".
      out = emptied && /^[,.;:!?]/.test(part.text) && out.endsWith(' ') ? out.slice(0, -1) : out;
      out += part.text;
      emptied = false;
    } else if (part.kind === 'unclosed') out += encode(part.raw);
    else if (part.kind === 'placeholder') {
      const value = Object.hasOwn(values, part.name) ? (values[part.name] ?? '') : '';
      out += encode(value);
      emptied = value === '';
    }
  }
  return out;
}

const asIs = (text: string): string => text;

/**
 * Renders a template with plain `{{placeholder}}` substitution and no logic of any kind. Email:
 * `subject` (one line: control characters removed), `html` (every value HTML-escaped: `&`, `<`,
 * `>`, `"`, `'`; the template's own markup is the merchant's) and `text` (values as they are).
 * SMS and WhatsApp: `text` only.
 *
 * @example renderTemplate({ channel: 'sms', text: 'Pay {{amount}}: {{update_payment_url}}' }, { amount: '$49.99', update_payment_url: 'https://…' }).text
 */
export function renderTemplate(template: RenderableTemplate & { readonly channel: 'email' }, values: PlaceholderValues): RenderedEmailParts;
export function renderTemplate(template: RenderableTemplate & { readonly channel: 'sms' | 'whatsapp' }, values: PlaceholderValues): RenderedTextMessage;
export function renderTemplate(template: RenderableTemplate, values: PlaceholderValues): RenderedEmailParts | RenderedTextMessage;
export function renderTemplate(template: RenderableTemplate, values: PlaceholderValues): RenderedEmailParts | RenderedTextMessage {
  const text = substitute(template.text, values, asIs);
  if (template.channel !== 'email') return { text };
  return {
    subject: headerSafe(substitute(template.subject ?? '', values, asIs)),
    html: substitute(template.html ?? '', values, escapeHtml),
    text,
  };
}

/**
 * The email with a visible unsubscribe link added (RFC 8058's headers are the sender's; this is
 * the link a reader sees): a last paragraph in the html part (before `</body>` when there is one;
 * the URL escaped) and in the text part.
 */
export function withUnsubscribeLink(email: RenderedEmailParts, unsubscribeUrl: string): RenderedEmailParts {
  const paragraph = `<p style="font-size:12px;color:#6b7280">Don't want these emails? <a href="${escapeHtml(unsubscribeUrl)}">Unsubscribe</a>.</p>\n`;
  const closing = email.html.lastIndexOf('</body>');
  const html = closing < 0 ? `${email.html}\n${paragraph}` : `${email.html.slice(0, closing)}${paragraph}${email.html.slice(closing)}`;
  return { ...email, html, text: `${email.text.trimEnd()}\n\nUnsubscribe: ${unsubscribeUrl}\n` };
}
