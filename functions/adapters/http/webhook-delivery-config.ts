import { resolverOfSetting } from '../dns/configured';
import { dnsResolver, type AddressResolver } from '../dns/resolver';
import type { AddressPolicy } from '#core/webhooks/address-policy';

/**
 * What outbound webhooks may reach here, read at call time (the local stack sets
 * WEBHOOK_ALLOW_LOOPBACK before its first request; CDK never sets it, so AWS refuses loopback).
 */
export function webhookAddressPolicy(): AddressPolicy {
  return { allowLoopback: process.env.WEBHOOK_ALLOW_LOOPBACK === 'true' };
}

/** The resolver of webhook hosts: WEBHOOK_DNS_SERVERS when set (read at call time), else the system's; made once per setting. */
export const webhookResolver: () => AddressResolver = resolverOfSetting('WEBHOOK_DNS_SERVERS', dnsResolver);
