import { Resolver } from 'node:dns/promises';
import { resolverOfSetting } from './configured';

/**
 * The DNS records port of custom hostnames and email domains: what a name's CNAME, TXT and MX
 * records say now. `node:dns`'s Resolver against the system's servers on AWS, or the servers of
 * `DNS_SERVERS` (comma-separated `host:port`, read at call time; tests point it at a DNS server on
 * loopback). A name with no such record answers an empty list; a resolver failure (timeout,
 * SERVFAIL) throws, so a caller never takes "no answer" for "not there".
 */
export interface DnsRecordResolver {
  /** The CNAME targets of `name`, lower-cased, without a trailing dot. */
  cname(name: string): Promise<string[]>;
  /** The TXT records of `name`, each record's strings joined. */
  txt(name: string): Promise<string[]>;
  /** The MX records of `name`, exchange lower-cased without a trailing dot. */
  mx(name: string): Promise<{ readonly priority: number; readonly exchange: string }[]>;
}

const NO_RECORD = new Set(['ENODATA', 'ENOTFOUND', 'ENONAME', 'NXDOMAIN']);

const normalise = (name: string): string => name.toLowerCase().replace(/\.$/, '');

export interface DnsRecordResolverOptions {
  /** `host:port` of the DNS servers to ask; the system's when absent. */
  readonly servers?: readonly string[];
  /** Per-query timeout in milliseconds. @default 2000 */
  readonly timeoutMs?: number;
}

export function dnsRecordResolver(options: DnsRecordResolverOptions = {}): DnsRecordResolver {
  const resolver = new Resolver({ timeout: options.timeoutMs ?? 2000, tries: 2 });
  if (options.servers !== undefined) resolver.setServers([...options.servers]);
  const ask = async <T>(query: Promise<T[]>): Promise<T[]> => {
    try {
      return await query;
    } catch (error) {
      if (NO_RECORD.has((error as NodeJS.ErrnoException).code ?? '')) return [];
      throw error;
    }
  };
  return {
    cname: async (name) => (await ask(resolver.resolveCname(name))).map(normalise),
    txt: async (name) => (await ask(resolver.resolveTxt(name))).map((chunks) => chunks.join('')),
    mx: async (name) => (await ask(resolver.resolveMx(name))).map(({ priority, exchange }) => ({ priority, exchange: normalise(exchange) })),
  };
}

/** The records resolver of the configuration: DNS_SERVERS when set (read at call time), else the system's; made once per setting. */
export const configuredDnsRecordResolver: () => DnsRecordResolver = resolverOfSetting('DNS_SERVERS', dnsRecordResolver);
