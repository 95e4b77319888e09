/**
 * How customers leave the API: A's fields (canonical) plus B's aliases for the same facts, with the same
 * value (DESIGN §1), typed against the response schemas (schemas.ts) so that the compiler checks
 * every field a view writes.
 */
import type * as z from '#shared/zod';
import type { CustomerRecord } from '#core/customers';
import type { Customer, RecoveryStats } from './schemas';

/**
 * A customer (A) with B's alias `total_revenue_cents`. Money totals are per currency (DESIGN §2c):
 * the scalars are the totals in `currency` (that of the customer's most recent payment), the
 * `_by_currency` maps hold every currency's.
 */
export const customerView = (c: CustomerRecord): z.output<typeof Customer> => ({
  id: c.id,
  provider_customer_id: c.provider_customer_id,
  email: c.email,
  name: c.name,
  psp: c.psp,
  total_payments: c.total_payments,
  failed_payments: c.failed_payments,
  recovered_payments: c.recovered_payments,
  currency: c.currency,
  lifetime_value_cents: c.lifetime_value_cents,
  total_revenue_cents: c.lifetime_value_cents,
  lifetime_value_by_currency: c.lifetime_value_by_currency,
  total_revenue_by_currency: c.lifetime_value_by_currency,
  timezone: c.timezone ?? null,
  phone: c.phone ?? null,
  card_expiry: c.card_expiry == null ? null : { month: c.card_expiry.month, year: c.card_expiry.year },
  created_at: c.created_at,
});

/** B's by-email recovery figures. */
export const recoveryStatsView = (c: CustomerRecord): z.output<typeof RecoveryStats> => ({
  total_failed: c.failed_payments,
  total_recovered: c.recovered_payments,
  recovery_rate: c.failed_payments === 0 ? 0 : c.recovered_payments / c.failed_payments,
  total_recovered_cents: c.total_recovered_cents,
  total_recovered_by_currency: c.total_recovered_by_currency,
});
