/**
 * The placeholders a template may use: the spec's 13 ("Template preview"), written `{{name}}`,
 * spaces allowed inside the braces (`{{ amount }}`). Nothing else is a placeholder: no helpers,
 * partials, sections or expressions (Handlebars' and Liquid's logic is where their template-injection
 * CVEs live; stage2-anchors §1), and a name is only ever looked up in this list.
 */
export const PLACEHOLDERS = [
  'customer_name',
  'customer_email',
  'amount',
  'amount_cents',
  'currency',
  'decline_code',
  'decline_reason',
  'retry_date',
  'merchant_name',
  'update_payment_url',
  'support_email',
  'subscription_name',
  'invoice_id',
] as const;
export type PlaceholderName = (typeof PLACEHOLDERS)[number];

const KNOWN: ReadonlySet<string> = new Set(PLACEHOLDERS);

export const isPlaceholderName = (name: string): name is PlaceholderName => KNOWN.has(name);

/** Where a problem is: 0-based offset into the field, 1-based line and column. */
export interface TextPosition {
  readonly index: number;
  readonly line: number;
  readonly column: number;
}

export type PlaceholderProblem =
  | (TextPosition & { readonly kind: 'unknown_placeholder'; readonly name: string })
  | (TextPosition & { readonly kind: 'unclosed_braces' });

/** A piece of a template: literal text, a known placeholder, or an unknown token (kept verbatim). */
export type TemplatePart =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'placeholder'; readonly name: PlaceholderName; readonly index: number }
  | { readonly kind: 'unknown'; readonly name: string; readonly raw: string; readonly index: number }
  | { readonly kind: 'unclosed'; readonly raw: string; readonly index: number };

const OPEN = '{{';
const CLOSE = '}}';
/** How much of an unknown token a message repeats (tokens are client input). */
const SHOWN_NAME_LENGTH = 40;

/**
 * Splits a template into parts, left to right: `{{` opens a token that the next `}}` closes; a
 * `{{` with no `}}` before the next `{{` (or the end) is unclosed, and its text stays literal. A
 * token whose trimmed content is one of PLACEHOLDERS is a placeholder; anything else (`{{ foo }}`,
 * `{{__proto__}}`, `{{#if x}}`, `{{{amount}}}`) is unknown. A lone `}}` is literal text.
 */
export function parseTemplate(source: string): TemplatePart[] {
  const parts: TemplatePart[] = [];
  let from = 0;
  const pushText = (text: string): void => {
    if (text !== '') parts.push({ kind: 'text', text });
  };
  while (from < source.length) {
    const open = source.indexOf(OPEN, from);
    if (open < 0) break;
    const close = source.indexOf(CLOSE, open + OPEN.length);
    const nextOpen = source.indexOf(OPEN, open + OPEN.length);
    if (close < 0 || (nextOpen >= 0 && nextOpen < close)) {
      const end = nextOpen >= 0 ? nextOpen : source.length;
      pushText(source.slice(from, open));
      parts.push({ kind: 'unclosed', raw: source.slice(open, end), index: open });
      from = end;
      continue;
    }
    pushText(source.slice(from, open));
    const raw = source.slice(open, close + CLOSE.length);
    const name = source.slice(open + OPEN.length, close).trim();
    parts.push(isPlaceholderName(name) ? { kind: 'placeholder', name, index: open } : { kind: 'unknown', name, raw, index: open });
    from = close + CLOSE.length;
  }
  pushText(source.slice(from));
  return parts;
}

/** The 1-based line and column of an offset. */
export function positionOf(source: string, index: number): TextPosition {
  const before = source.slice(0, index);
  const line = before.split('\n').length;
  return { index, line, column: index - before.lastIndexOf('\n') };
}

/**
 * What makes a template unusable, with where each problem is: unknown placeholders (names outside
 * PLACEHOLDERS, prototype names such as `__proto__` or `constructor` included) and `{{` left
 * unclosed. Empty when the template may be saved.
 *
 * @example templatePlaceholderProblems('Hi {{ name }}') // [{ kind: 'unknown_placeholder', name: 'name', index: 3, line: 1, column: 4 }]
 */
export function templatePlaceholderProblems(source: string): PlaceholderProblem[] {
  const problems: PlaceholderProblem[] = [];
  for (const part of parseTemplate(source)) {
    if (part.kind === 'unknown') problems.push({ kind: 'unknown_placeholder', name: part.name, ...positionOf(source, part.index) });
    if (part.kind === 'unclosed') problems.push({ kind: 'unclosed_braces', ...positionOf(source, part.index) });
  }
  return problems;
}

/** The known placeholders a template uses, each once, in PLACEHOLDERS order. */
export function placeholdersUsed(...sources: readonly (string | null | undefined)[]): PlaceholderName[] {
  const used = new Set<string>();
  for (const source of sources) {
    if (source === null || source === undefined) continue;
    for (const part of parseTemplate(source)) if (part.kind === 'placeholder') used.add(part.name);
  }
  return PLACEHOLDERS.filter((name) => used.has(name));
}

/** One problem in words, for an error message: `unknown placeholder {{ foo }} at line 2, column 7`. */
export function describeProblem(problem: PlaceholderProblem): string {
  const where = `at line ${problem.line}, column ${problem.column}`;
  if (problem.kind === 'unclosed_braces') return `"{{" is not closed by "}}" ${where}`;
  const name = problem.name.length > SHOWN_NAME_LENGTH ? `${problem.name.slice(0, SHOWN_NAME_LENGTH)}…` : problem.name;
  return `unknown placeholder {{${name}}} ${where}`;
}
