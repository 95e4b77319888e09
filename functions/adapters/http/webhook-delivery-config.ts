import { dnsResolver, type AddressResolver } from '../dns/resolver';
import type { AddressPolicy } from '#core/webhooks/address-policy';

/**
 * What outbound webhooks may reach here, read at call time (the local stack sets
 * WEBHOOK_ALLOW_LOOPBACK before its first request; CDK never sets it, so AWS refuses loopback).
 */
export function webhookAddressPolicy(): AddressPolicy {
  return { allowLoopback: process.env.WEBHOOK_ALLOW_LOOPBACK === 'true' };
}

let resolver: AddressResolver | undefined;

/** The system's resolver (node:dns), made once per process. */
export function webhookResolver(): AddressResolver {
  resolver ??= dnsResolver();
  return resolver;
}
