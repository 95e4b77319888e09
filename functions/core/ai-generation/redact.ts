/**
 * What leaves the service in a prompt (issue 15, "Prompts carry no card data"): every prompt, of
 * every use case and template, goes through redactPrompt before it reaches a model.
 * - Card numbers: runs of 13-19 digits (spaces or dashes between groups allowed) that pass the
 *   Luhn check, whole or as consecutive groups of a longer run, become `[card number removed]`.
 * - Card verification values: a 3-4 digit value labelled cvv, cvv2, cvc, cvc2, cid, csc,
 *   security code or card verification (value/code), and a labelled expiry date (exp, expiry,
 *   expiration (date)), keep their label and lose their value.
 * - Email addresses become `[customer email]` unless `keepEmails` (no use case needs them today).
 * - Names: a value labelled as a person's name (customer_name, first_name, last_name, full_name,
 *   cardholder, name_on_card, a JSON `"name"` key or a line starting `name:`) becomes
 *   `[customer name]` unless `keepNames`. A name written in free text with no label cannot be told
 *   from other words; docs/ai.md asks merchants to label it or leave it out.
 */
export interface RedactionOptions {
  readonly keepNames: boolean;
  readonly keepEmails: boolean;
}

export interface Redaction {
  readonly text: string;
  /** How many values of each kind were replaced (logged, never the values). */
  readonly removed: { readonly cards: number; readonly cardFields: number; readonly emails: number; readonly names: number };
}

export const CARD_NUMBER_MASK = '[card number removed]';
export const CARD_FIELD_MASK = '[removed]';
export const EMAIL_MASK = '[customer email]';
export const NAME_MASK = '[customer name]';

const MIN_PAN_DIGITS = 13;
const MAX_PAN_DIGITS = 19;

/** The Luhn (mod 10) check of a string of digits. */
export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let index = 0; index < digits.length; index += 1) {
    let digit = digits.charCodeAt(digits.length - 1 - index) - 48;
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return digits.length > 0 && sum % 10 === 0;
}

const isPan = (digits: string): boolean => digits.length >= MIN_PAN_DIGITS && digits.length <= MAX_PAN_DIGITS && passesLuhn(digits);

/** A run of digits with single spaces or dashes between groups, not touching other digits. */
const DIGIT_RUN = /(?<!\d)\d(?:[ -]?\d)*(?!\d)/g;

/**
 * The run with every card number in it masked: the run itself when it is one, else the longest
 * consecutive groups that are one (a card number written beside an order number).
 */
function maskRun(run: string): { text: string; count: number } {
  if (isPan(run.replace(/[ -]/g, ''))) return { text: CARD_NUMBER_MASK, count: 1 };
  const parts = run.split(/([ -])/);
  const groups = parts.filter((_part, index) => index % 2 === 0);
  if (groups.length < 2) return { text: run, count: 0 };
  const masked = new Array<boolean>(groups.length).fill(false);
  let count = 0;
  for (let start = 0; start < groups.length; start += 1) {
    for (let end = groups.length; end > start + 1; end -= 1) {
      if (masked.slice(start, end).some(Boolean)) continue;
      if (isPan(groups.slice(start, end).join(''))) {
        masked.fill(true, start, end);
        count += 1;
        break;
      }
    }
  }
  if (count === 0) return { text: run, count: 0 };
  const out: string[] = [];
  groups.forEach((group, index) => {
    if (masked[index] && index > 0 && masked[index - 1]) return;
    if (index > 0) out.push(parts[index * 2 - 1] ?? ' ');
    out.push(masked[index] ? CARD_NUMBER_MASK : group);
  });
  return { text: out.join(''), count };
}

const SEPARATOR = String.raw`(["']?\s*[:=]\s*["']?|\s+(?:is\s+)?)`;
const CARD_FIELD = new RegExp(
  String.raw`\b(cvv2?|cvc2?|cid|csc|security[ _-]?code|card[ _-]?verification(?:[ _-]?(?:value|code))?)${SEPARATOR}(\d{3,4})\b|\b(exp(?:iry|iration)?(?:[ _-]?date)?)${SEPARATOR}(\d{1,2}\s*[/-]\s*\d{2,4})`,
  'gi',
);
const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;
const NAME_FIELD =
  /(\b(?:customer[ _-]?name|full[ _-]?name|first[ _-]?name|last[ _-]?name|given[ _-]?name|family[ _-]?name|card[ _-]?holder(?:[ _-]?name)?|name[ _-]?on[ _-]?card)\b["']?\s*[:=]\s*["']?|"name"\s*:\s*"|^[ \t]*name[ \t]*[:=][ \t]*)([^\n,;"'}\]]{1,100})/gim;

export function redactPrompt(text: string, options: RedactionOptions): Redaction {
  let cards = 0;
  let cardFields = 0;
  let emails = 0;
  let names = 0;
  let out = text.replace(CARD_FIELD, (_match, label?: string, separator?: string, _value?: string, expLabel?: string, expSeparator?: string) => {
    cardFields += 1;
    return label === undefined ? `${expLabel}${expSeparator}${CARD_FIELD_MASK}` : `${label}${separator}${CARD_FIELD_MASK}`;
  });
  out = out.replace(DIGIT_RUN, (run) => {
    const masked = maskRun(run);
    cards += masked.count;
    return masked.text;
  });
  if (!options.keepEmails) {
    out = out.replace(EMAIL, () => {
      emails += 1;
      return EMAIL_MASK;
    });
  }
  if (!options.keepNames) {
    out = out.replace(NAME_FIELD, (_match, label: string, value: string) => {
      // A placeholder (`[customer name]`, `[customer email]`) is already masked: redaction is idempotent.
      if (value.trim() === '' || value.trimStart().startsWith('[')) return `${label}${value}`;
      names += 1;
      return `${label}${NAME_MASK}`;
    });
  }
  return { text: out, removed: { cards, cardFields, emails, names } };
}
