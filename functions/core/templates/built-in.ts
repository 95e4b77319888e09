import { placeholdersUsed } from './placeholders';
import type { TemplateChannel, TemplateRecord } from './template';

/**
 * The built-in templates: the manual dunning email and the defaults of the pre-built campaigns
 * (core/campaigns/templates.ts names them). Read-only, the same for every merchant (merchant_id
 * null), written for the merchant's customers: polite, clear, one call to action (update the
 * payment method through `{{update_payment_url}}`). They avoid placeholders that may be empty
 * (retry_date, support_email, invoice_id), since a template has no logic to leave a sentence out.
 */

/** The date every built-in reports as created_at and updated_at (when they were last revised). */
export const BUILT_IN_TEMPLATES_REVISED_AT = '2026-11-25T00:00:00.000Z';

const BUTTON_STYLE = 'display:inline-block;padding:12px 22px;background:#2563eb;color:#ffffff;text-decoration:none;border-radius:6px;font-weight:600';
const BODY_STYLE = 'margin:0;padding:24px;font-family:-apple-system,Segoe UI,Helvetica,Arial,sans-serif;font-size:16px;line-height:1.5;color:#1f2933';

/** `{ button }` marks the one call to action; other lines are paragraphs (`<br>` a line break, a newline in the text part). */
type Line = string | { readonly button: string };

interface EmailSpec {
  readonly name: string;
  readonly subject: string;
  readonly lines: readonly Line[];
}

const paragraphsHtml = (lines: readonly Line[]): string =>
  lines
    .map((line) =>
      typeof line === 'string' ? `<p>${line}</p>` : `<p style="margin:28px 0"><a href="{{update_payment_url}}" style="${BUTTON_STYLE}">${line.button}</a></p>`,
    )
    .join('\n');

const paragraphsText = (lines: readonly Line[]): string =>
  lines.map((line) => (typeof line === 'string' ? line.replaceAll('<br>', '\n') : `${line.button}: {{update_payment_url}}`)).join('\n\n');

function email(id: string, spec: EmailSpec): TemplateRecord {
  const html = `<!DOCTYPE html>\n<html lang="en">\n<body style="${BODY_STYLE}">\n${paragraphsHtml(spec.lines)}\n</body>\n</html>\n`;
  const text = `${paragraphsText(spec.lines)}\n`;
  return record(id, 'email', spec.name, spec.subject, html, text);
}

function message(id: string, channel: Exclude<TemplateChannel, 'email'>, name: string, text: string): TemplateRecord {
  return record(id, channel, name, null, null, text);
}

function record(id: string, channel: TemplateChannel, name: string, subject: string | null, html: string | null, text: string): TemplateRecord {
  return {
    id,
    merchant_id: null,
    name,
    channel,
    subject,
    html,
    text,
    whatsapp_content_sid: null,
    placeholders: placeholdersUsed(subject, html, text),
    built_in: true,
    created_at: BUILT_IN_TEMPLATES_REVISED_AT,
    updated_at: BUILT_IN_TEMPLATES_REVISED_AT,
  };
}

const GREETING = 'Hello {{customer_name}},';
const SIGNATURE = 'Thank you,<br>{{merchant_name}}';
const UPDATE = { button: 'Update payment method' } as const;
const UPDATE_CARD = { button: 'Update card' } as const;

/** The built-in templates, made on first use (not at cold start: most functions never render one). */
const makeTemplates = (): readonly TemplateRecord[] => [
  // The manual dunning email (POST /recoveries/{id}/dunning without template_id), in the wording it had before templates.
  email('tmpl_dunning_default', {
    name: 'Payment failed (manual reminder)',
    subject: 'Your payment of {{amount}} to {{merchant_name}} did not go through',
    lines: [
      GREETING,
      'We could not collect your payment of {{amount}} to {{merchant_name}}.',
      'Please update your payment method so that your subscription continues without interruption.',
      UPDATE,
      'If you have already done so, you can ignore this email.',
      '{{merchant_name}}',
    ],
  }),
  email('tmpl_soft_decline_1', {
    name: 'Soft decline: first notice',
    subject: 'We could not process your payment of {{amount}}',
    lines: [
      GREETING,
      'Your latest payment of {{amount}} to {{merchant_name}} did not go through. This is often temporary, and we will try it again automatically.',
      'If your card has changed, or you would rather use another one, you can update your payment method in a minute:',
      UPDATE,
      'If everything is in order with your card, there is nothing you need to do.',
      SIGNATURE,
    ],
  }),
  email('tmpl_soft_decline_2', {
    name: 'Soft decline: second notice',
    subject: 'Your payment of {{amount}} to {{merchant_name}} is still outstanding',
    lines: [
      GREETING,
      'We tried again to collect your payment of {{amount}}, but it was declined once more.',
      'To keep your subscription active, please check that your card can be charged, or switch to another payment method:',
      UPDATE,
      'If you have any questions, just reply to this email.',
      SIGNATURE,
    ],
  }),
  email('tmpl_soft_decline_final', {
    name: 'Soft decline: final notice',
    subject: 'Final notice: action needed to keep your {{merchant_name}} subscription',
    lines: [
      GREETING,
      'We have still not been able to collect your payment of {{amount}}. This is our last reminder: if the payment cannot be collected, your subscription may be paused or cancelled.',
      'Updating your payment method takes a minute and keeps everything as it is:',
      UPDATE,
      'If you have already updated it, thank you, and please ignore this email.',
      SIGNATURE,
    ],
  }),
  email('tmpl_card_update_1', {
    name: 'Card declined: update needed',
    subject: 'Please update your card for {{merchant_name}}',
    lines: [
      GREETING,
      'Your bank declined your payment of {{amount}} to {{merchant_name}}, and trying again will not help: the card on file needs to be updated. It may have expired or been replaced.',
      'Please add your current card so that your subscription continues without interruption:',
      UPDATE_CARD,
      SIGNATURE,
    ],
  }),
  email('tmpl_card_update_2', {
    name: 'Card declined: reminder',
    subject: 'Reminder: your card for {{merchant_name}} needs updating',
    lines: [
      GREETING,
      'A quick reminder: your payment of {{amount}} could not be collected because the card on file is no longer accepted.',
      'It only takes a minute to add your current card:',
      UPDATE_CARD,
      'If you have any questions, just reply to this email.',
      SIGNATURE,
    ],
  }),
  email('tmpl_card_update_final', {
    name: 'Card declined: final notice',
    subject: 'Last reminder: update your card to keep your {{merchant_name}} subscription',
    lines: [
      GREETING,
      'We still cannot collect your payment of {{amount}}, because the card on file is no longer accepted. This is our last reminder before your subscription may be paused or cancelled.',
      'Add your current card to keep everything as it is:',
      UPDATE_CARD,
      'If you have already updated it, thank you, and please ignore this email.',
      SIGNATURE,
    ],
  }),
  message(
    'tmpl_card_update_sms',
    'sms',
    'Card declined: SMS',
    '{{merchant_name}}: your payment of {{amount}} was declined and your card needs updating. Update it here to keep your subscription: {{update_payment_url}} Reply STOP to opt out.',
  ),
  email('tmpl_card_expiring_1', {
    name: 'Card expiring: first notice',
    subject: 'Your card for {{merchant_name}} expires soon',
    lines: [
      GREETING,
      'The card you use for {{merchant_name}} is about to expire.',
      'Update it now so that your next payment goes through and your subscription continues without interruption:',
      UPDATE_CARD,
      'If you have already updated it, thank you, and please ignore this email.',
      SIGNATURE,
    ],
  }),
  email('tmpl_card_expiring_2', {
    name: 'Card expiring: reminder',
    subject: 'Reminder: your card for {{merchant_name}} expires soon',
    lines: [
      GREETING,
      'A quick reminder: the card on file for {{merchant_name}} expires soon, and your next payment will fail unless it is updated.',
      UPDATE_CARD,
      SIGNATURE,
    ],
  }),
  email('tmpl_high_value_1', {
    name: 'High value: personal notice',
    subject: 'Your payment of {{amount}} to {{merchant_name}} needs your attention',
    lines: [
      GREETING,
      'We were unable to process your payment of {{amount}} to {{merchant_name}}. We value your business and want to make sure nothing is interrupted.',
      'You can update your payment method securely here:',
      UPDATE,
      'If you would like help, or would prefer to pay another way, reply to this email and we will be glad to assist.',
      SIGNATURE,
    ],
  }),
  email('tmpl_high_value_2', {
    name: 'High value: follow-up',
    subject: 'Following up on your payment of {{amount}}',
    lines: [
      GREETING,
      'We are following up on your payment of {{amount}} to {{merchant_name}}, which is still outstanding.',
      'Updating your payment method takes a minute and keeps your account as it is:',
      UPDATE,
      'If anything about this payment is unclear, reply to this email and we will sort it out with you.',
      SIGNATURE,
    ],
  }),
  message(
    'tmpl_high_value_sms',
    'sms',
    'High value: SMS',
    '{{merchant_name}}: we could not process your payment of {{amount}}. Please update your payment method here: {{update_payment_url}} Reply STOP to opt out.',
  ),
];

let byId: ReadonlyMap<string, TemplateRecord> | undefined;

/** The built-in templates by id. */
export const builtInTemplates = (): ReadonlyMap<string, TemplateRecord> => {
  byId ??= new Map(makeTemplates().map((template) => [template.id, template]));
  return byId;
};

/** The built-in template of an id, or undefined (the map is read with `get`, never by property). */
export const builtInTemplate = (id: string): TemplateRecord | undefined => builtInTemplates().get(id);
