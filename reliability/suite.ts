import type { LocalStack } from '#lib/local/local-stack';
import { startDnsServer } from '#test/fixtures/dns-server';
import { startIdentityProvider } from '#test/fixtures/identity-provider';
import { PUBLIC_ADDRESS, PUBLIC_HOST, type SuiteContext } from './context';
import type { Figure } from './figures';

/** The parts of the suite, in the order they run; `--only` picks some by these names. */
export const PARTS = ['crash', 'isolation', 'fuzz', 'storms', 'ssrf', 'erasure'] as const;
export type Part = (typeof PARTS)[number];

export interface SuiteOptions {
  readonly stack: LocalStack;
  readonly short: boolean;
  readonly only?: readonly Part[];
  /** Each figure as it is measured (the CLI prints it at once). */
  readonly onFigure?: (figure: Figure) => void;
  readonly log?: (message: string) => void;
}

/**
 * Runs the suite against a started local stack (its HTTP server on loopback, its DynamoDB Local)
 * and gives every figure. The stack must run with `background: false`: the suite drives the
 * table's stream and the queues itself, and the crash part runs consumers in child processes.
 * Webhook and automation URLs are resolved through a DNS server of the suite's own (DNS_SERVERS,
 * WEBHOOK_DNS_SERVERS), and loopback receivers are refused (WEBHOOK_ALLOW_LOOPBACK=false) as on AWS,
 * except while the crash part's receiver is being set up. The session proxy is configured with an
 * identity provider of the suite's own (a loopback JWKS: IDP_ISSUER, IDP_AUDIENCE, IDP_JWKS_URL), so
 * its routes answer as a deployed one does (every fuzzed token verified and refused) rather than 503
 * "not configured".
 */
export async function runSuite(options: SuiteOptions): Promise<Figure[]> {
  const dns = await startDnsServer();
  dns.set(PUBLIC_HOST, [PUBLIC_ADDRESS]);
  const identity = await startIdentityProvider();
  const saved = {
    DNS_SERVERS: process.env.DNS_SERVERS,
    WEBHOOK_DNS_SERVERS: process.env.WEBHOOK_DNS_SERVERS,
    WEBHOOK_ALLOW_LOOPBACK: process.env.WEBHOOK_ALLOW_LOOPBACK,
    IDP_ISSUER: process.env.IDP_ISSUER,
    IDP_AUDIENCE: process.env.IDP_AUDIENCE,
    IDP_JWKS_URL: process.env.IDP_JWKS_URL,
  };
  Object.assign(process.env, { DNS_SERVERS: dns.address, WEBHOOK_DNS_SERVERS: dns.address, WEBHOOK_ALLOW_LOOPBACK: 'false' });
  identity.configure();
  const context: SuiteContext = {
    stack: options.stack,
    origin: options.stack.api_url.replace(/\/api\/v1$/, ''),
    apiUrl: options.stack.api_url,
    dns,
    cronSecret: process.env.CRON_SECRET ?? '',
    short: options.short,
    log: options.log ?? (() => undefined),
  };
  const figures: Figure[] = [];
  const report = (measured: readonly Figure[]): void => {
    for (const figure of measured) {
      figures.push(figure);
      options.onFigure?.(figure);
    }
  };
  const wanted = (part: Part): boolean => options.only === undefined || options.only.length === 0 || options.only.includes(part);
  try {
    // First, while the table's stream holds only its own events: the dispatcher it kills reads the stream from its start.
    if (wanted('crash')) {
      context.log('crash: SIGKILL mid-batch, then restart');
      const { crash } = await import('./crash');
      report(await crash(context));
    }
    const { seedTenant } = await import('./seed');
    const owner = wanted('isolation') || wanted('fuzz') ? await seedTenant(context) : undefined;
    if (owner !== undefined && wanted('isolation')) {
      context.log("isolation: every id route with another merchant's ids");
      const { isolation } = await import('./isolation');
      report(await isolation(context, owner));
    }
    if (owner !== undefined && wanted('fuzz')) {
      context.log('fuzz: every body and query parameter from the route table');
      const { fuzz } = await import('./fuzz');
      report(await fuzz(context, owner));
    }
    if (wanted('storms')) {
      context.log('storms: duplicate deliveries, same-key requests, a rate limit');
      const { storms } = await import('./storms');
      report(await storms(context));
    }
    if (wanted('ssrf')) {
      context.log('ssrf: every URL-taking field');
      const { ssrf } = await import('./ssrf');
      report(await ssrf(context));
    }
    if (wanted('erasure')) {
      context.log('erasure: a customer with data of every kind');
      const { erasure } = await import('./erasure');
      report(await erasure(context));
    }
  } finally {
    Object.assign(process.env, saved);
    for (const [name, value] of Object.entries(saved)) if (value === undefined) delete process.env[name];
    await dns.close();
    await identity.close();
  }
  return figures;
}
