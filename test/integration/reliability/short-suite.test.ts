/**
 * `npm run reliability -- --short` inside `npm test`: the reliability suite (reliability/, issue
 * 17) against this file's local stack over real HTTP: tenant isolation, fuzzing, crash injection
 * (child processes SIGKILLed mid-batch), storms, SSRF probes and erasure completeness. Every
 * figure must pass; a failing one is named with its detail.
 */
import '#test/fixtures/cron-secret';
import type { LocalStack } from '#lib/local/local-stack';
import { type Figure, formatFigure, passes } from '#reliability/figures';
import { PARTS, runSuite } from '#reliability/suite';
import { startTestStack } from '#test/fixtures/local-stack';

describe('the reliability suite, short', () => {
  let stack: LocalStack;
  let figures: Figure[];

  beforeAll(async () => {
    stack = await startTestStack();
    figures = await runSuite({ stack, short: true });
  }, 480_000);

  afterAll(async () => {
    await stack?.stop();
  });

  it('measures every part of the suite', () => {
    // Assess
    expect([...new Set(figures.map((figure) => figure.area))].sort()).toEqual([...PARTS].sort());
  });

  it('passes every figure', () => {
    // Assess
    expect(figures.filter((figure) => !passes(figure)).map(formatFigure)).toEqual([]);
  });

  it('fuzzes at least the short run of cases with no 5xx and no partial write', () => {
    // Assess
    const fuzz = Object.fromEntries(figures.filter((figure) => figure.area === 'fuzz').map((figure) => [figure.name, figure.value]));
    expect(fuzz).toMatchObject({ 'responses >= 500': 0, 'partial writes (table diff around each 4xx)': 0 });
    expect(fuzz.cases).toBeGreaterThanOrEqual(400);
  });
});
