import { Resolver } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';

/**
 * The resolver port: a host's IPv4 and IPv6 addresses. `node:dns`'s Resolver (the system's
 * servers on AWS; tests point it at a DNS server on loopback). An IP literal resolves to itself;
 * `localhost` to the loopback addresses without a query.
 */
export interface AddressResolver {
  resolve(host: string): Promise<string[]>;
}

export interface DnsResolverOptions {
  /** `host:port` of the DNS servers to ask; the system's when absent. */
  readonly servers?: readonly string[];
  /** Per-query timeout in milliseconds. @default 2000 */
  readonly timeoutMs?: number;
}

const NO_ANSWER = new Set(['ENODATA', 'ENOTFOUND', 'ENONAME', 'NXDOMAIN']);

export function dnsResolver(options: DnsResolverOptions = {}): AddressResolver {
  const resolver = new Resolver({ timeout: options.timeoutMs ?? 2000, tries: 2 });
  if (options.servers !== undefined) resolver.setServers([...options.servers]);
  const ask = async (query: Promise<string[]>): Promise<string[]> => {
    try {
      return await query;
    } catch (error) {
      if (NO_ANSWER.has((error as NodeJS.ErrnoException).code ?? '')) return [];
      throw error;
    }
  };
  return {
    async resolve(host) {
      if (ipaddr.isValid(host)) return [host];
      if (host === 'localhost' || host.endsWith('.localhost')) return ['127.0.0.1', '::1'];
      const [v4, v6] = await Promise.all([ask(resolver.resolve4(host)), ask(resolver.resolve6(host))]);
      return [...v4, ...v6];
    },
  };
}
