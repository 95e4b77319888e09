import type { LocalStack } from '#lib/local/local-stack';
import type { TestDnsServer } from '#test/fixtures/dns-server';

/** What every part of the suite works with: the running stack, the DNS server its resolvers ask, the run's size. */
export interface SuiteContext {
  readonly stack: LocalStack;
  /** `http://127.0.0.1:<port>`: the merchant, edge and webhook APIs all answer here locally. */
  readonly origin: string;
  /** `<origin>/api/v1`. */
  readonly apiUrl: string;
  /** The loopback DNS server that DNS_SERVERS and WEBHOOK_DNS_SERVERS point at. */
  readonly dns: TestDnsServer;
  /** The internal routes' shared secret (CRON_SECRET). */
  readonly cronSecret: string;
  readonly short: boolean;
  /** Progress for the operator (stderr); the figures go to stdout. */
  log(message: string): void;
}

/** A name under the reserved `.test` TLD that the suite's DNS server answers as a public address. */
export const PUBLIC_HOST = 'hooks.reliability.test';
export const PUBLIC_ADDRESS = '93.184.216.34';
