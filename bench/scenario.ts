/**
 * What a scenario of `npm run bench` is: one request measured two ways, (a) through the real
 * handler and (b) as the raw DynamoDB calls that request needs, so that their ratio shows what
 * the pipeline costs on top of the data access it cannot avoid.
 *
 * A scenario is one file in bench/scenarios/ exporting `scenario`. Those files are imported only
 * after the bench has set the environment, so they may import from functions/ at the top.
 */

/** The merchant every scenario calls as, created once per run (rate limits high enough never to answer 429). */
export interface BenchFixture {
  readonly merchantId: string;
  /** The plaintext key, `rk_test_…`. */
  readonly apiKey: string;
  readonly apiKeyId: string;
  readonly readPerMinute: number;
  readonly writePerMinute: number;
  /** Merchants in the table right now (each with a key and some rate-limit windows), the bench merchant included. */
  readonly merchants: number;
}

export interface ScenarioSides {
  /** (a) One request through the real handler; throws unless the answer is the expected one. */
  handler(): Promise<void>;
  /** (b) The raw DynamoDB calls the same request needs, made directly with the SDK. */
  raw(): Promise<void>;
}

export interface Scenario {
  /** Shown in the report, e.g. `GET /api/v1/status with a key`. */
  readonly name: string;
  /** Ceiling for median(handler) / median(raw); 1.5 unless said otherwise. */
  readonly target?: number;
  /** Printed under the scenario's table: how the raw side was chosen, what is amortised. */
  readonly notes?: readonly string[];
  /**
   * Called once per data size, after the table has grown to `fixture.merchants` merchants. Seeds
   * whatever else the scenario reads (proportional to the size when it matters), checks once that
   * the handler gives the expected answer (throw if not: that fails the bench) and returns both sides.
   */
  prepare(fixture: BenchFixture): Promise<ScenarioSides>;
}
