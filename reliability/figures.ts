/** One measured figure of the reliability suite: a count (or a value) against what it must be. */
export interface Figure {
  /** Which part of the suite: `isolation`, `fuzz`, `crash`, `storms`, `ssrf`, `erasure`. */
  readonly area: string;
  readonly name: string;
  readonly value: number;
  /** `eq`: must equal `target`; `max`: at most `target`; `min`: at least `target`. */
  readonly rule: 'eq' | 'max' | 'min';
  readonly target: number;
  /** What was measured and, for a shortfall, the first offending cases. */
  readonly detail?: string;
}

export const passes = (figure: Figure): boolean =>
  figure.rule === 'eq' ? figure.value === figure.target : figure.rule === 'max' ? figure.value <= figure.target : figure.value >= figure.target;

const RULE_TEXT = { eq: '=', max: '<=', min: '>=' } as const;

/** `PASS isolation  leaks                       0 (= 0)  1,234 requests`: one line per figure. */
export function formatFigure(figure: Figure): string {
  const verdict = passes(figure) ? 'PASS' : 'FAIL';
  const value = `${figure.value.toLocaleString('en-US')} (${RULE_TEXT[figure.rule]} ${figure.target.toLocaleString('en-US')})`;
  return `${verdict} ${figure.area.padEnd(9)} ${figure.name.padEnd(52)} ${value.padEnd(20)} ${figure.detail ?? ''}`.trimEnd();
}

/** At most `limit` examples, for a figure's detail. */
export const firstOf = (examples: readonly string[], limit = 3): string =>
  examples.length === 0 ? '' : `; e.g. ${examples.slice(0, limit).join(' | ')}${examples.length > limit ? ` (+${examples.length - limit})` : ''}`;
