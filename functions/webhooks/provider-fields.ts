import type { Psp } from '#core/providers';
import { at, text } from './json-payload';
import { WebhookPayloadError } from './types';

/**
 * Field readers the chargebee, recurly, paddle, razorpay, mollie and gocardless modules share on
 * top of json-payload.ts.
 */

/**
 * A three-letter currency code at `path`, lowercased (the service's form), or undefined when absent.
 * Anything else there is a WebhookPayloadError: a verified body with a garbled currency is not
 * what the provider documents.
 *
 * @example lowercaseCurrency({ currency_code: 'USD' }, 'currency_code', 'chargebee') // 'usd'
 */
export function lowercaseCurrency(value: unknown, path: string, psp: Psp): string | undefined {
  const found = at(value, path);
  if (found === undefined || found === null) return undefined;
  const code = text(found);
  if (code === undefined || !/^[A-Za-z]{3}$/.test(code)) throw new WebhookPayloadError(`${psp} webhook ${path} is not a currency code`);
  return code.toLowerCase();
}
