import { chartSvg } from '#simulator/chart';
import { runFixedSchedule } from '#simulator/fixed';
import { PARAMETERS } from '#simulator/parameters';
import { buildPortfolio } from '#simulator/portfolio';
import { formatTable, type SimulationReport, strategyReport, usdCentsOf } from '#simulator/report';

/**
 * Whether `xml` is well-formed: one root, every tag closed in order, attributes quoted, only the
 * predefined entities, nothing but whitespace outside the root (the prolog aside).
 */
function wellFormed(xml: string): boolean {
  const body = xml.replace(/^<\?xml[^?]*\?>\s*/, '');
  const token = /<\/?([A-Za-z][\w:-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>|([^<]+)|(<)/g;
  const stack: string[] = [];
  let roots = 0;
  for (let match = token.exec(body); match !== null; match = token.exec(body)) {
    const [whole, name, , selfClosing, text, stray] = match;
    if (stray !== undefined) return false;
    if (text !== undefined) {
      if (stack.length === 0 && text.trim() !== '') return false;
      if (/&(?!(amp|lt|gt|quot|apos);)/.test(text)) return false;
      continue;
    }
    if (whole.startsWith('</')) {
      if (stack.pop() !== name) return false;
      continue;
    }
    if (stack.length === 0) roots += 1;
    if (selfClosing !== '/') stack.push(name as string);
  }
  return stack.length === 0 && roots === 1;
}

describe('simulator fixed schedules and report', () => {
  const portfolio = buildPortfolio(5, 150);

  it("runs each payment at most the schedule's retries, stops at the recovery, and counts the network rules it breaks", () => {
    // Act
    const world = runFixedSchedule(portfolio, PARAMETERS.fixedSchedules.fixed_8_in_14);
    const report = strategyReport('fixed_8_in_14', portfolio, world);
    // Assess
    const retries = world.authorisations.filter((a) => a.attempt > 0);
    const perPayment = new Map<number, number>();
    for (const a of retries) perPayment.set(a.payment, (perPayment.get(a.payment) ?? 0) + 1);
    expect(Math.max(...perPayment.values())).toBeLessThanOrEqual(8);
    for (const [index, at] of world.recoveries) expect(retries.filter((a) => a.payment === index && a.at > at)).toHaveLength(0);
    // Every do-not-retry payment on Visa or Mastercard is retried anyway: a violation at least once each.
    const forbidden = portfolio.payments.filter((p) => p.kind === 'do_not_retry' && p.card.network !== 'other');
    expect(forbidden.length).toBeGreaterThan(0);
    expect(report.violations).toBeGreaterThanOrEqual(forbidden.length);
    expect(report.fees.amount).toBeGreaterThan(0);
    expect(report.attempts).toBe(retries.length);
    expect(report.recovered_count).toBe(world.recoveries.size);
  });

  it('reports amounts per currency and one USD figure at the fixed rates, never a sum of currencies', () => {
    // Act
    const world = runFixedSchedule(portfolio, PARAMETERS.fixedSchedules.fixed_4_in_21);
    const report = strategyReport('fixed_4_in_21', portfolio, world);
    // Assess
    const expected: Record<string, number> = {};
    let usd = 0;
    for (const index of world.recoveries.keys()) {
      const p = portfolio.payments.find((x) => x.index === index);
      if (p === undefined) throw new Error('unknown payment');
      expected[p.currency] = (expected[p.currency] ?? 0) + p.amount;
      usd += usdCentsOf(p.amount, p.currency);
    }
    expect(report.recovered_amount.by_currency).toEqual(expected);
    expect(report.recovered_amount.usd_cents_at_fixed_rates).toBe(usd);
    expect(report.cumulative_usd_cents_by_day.at(-1)).toBe(usd);
    expect(usdCentsOf(1000, 'jpy')).toBe(670);
  });

  it('draws a well-formed SVG chart, one line per strategy, and a table naming each', () => {
    // Prepare
    const report: SimulationReport = {
      seed: 5,
      payments: portfolio.payments.length,
      start: portfolio.start.toISOString(),
      days: 44,
      strategies: (['fixed_8_in_14', 'fixed_4_in_21'] as const).map((name) =>
        strategyReport(name, portfolio, runFixedSchedule(portfolio, PARAMETERS.fixedSchedules[name])),
      ),
    };
    // Act
    const svg = chartSvg(report);
    const table = formatTable(report);
    // Assess
    expect(wellFormed(svg)).toBe(true);
    expect(wellFormed('<svg><g></svg>')).toBe(false);
    expect(svg.match(/<polyline /g)).toHaveLength(2);
    expect(svg).toContain('xmlns="http://www.w3.org/2000/svg"');
    expect(table).toContain('fixed_8_in_14');
    expect(table).toContain('fixed_4_in_21');
  });
});
