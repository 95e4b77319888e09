import * as z from '#shared/zod';
import { PAYMENT_STATUS_FILTERS } from '#core/payments';
import { offsetPagingQuery } from '#api/pipeline/paging-query';
import { PaymentData } from '#api/payments/schemas';
import { RECOVERY_STATUS_FILTERS, Recovery } from '#api/recoveries/schemas';
import { AmountsByCurrency, OffsetPagination, ResponseMeta } from '#api/envelope-schemas';

// ---- Request parts ----

/** `true` / `false` only (README, API conventions). */
const booleanQuery = z.pipe(
  z.enum(['true', 'false']),
  z.transform((value) => value === 'true'),
);

/** A created bound: ISO 8601 with an offset (A) or YYYY-MM-DD (B, midnight UTC). */
const createdBound = z
  .pipe(
    z.union([z.iso.datetime({ offset: true }), z.iso.date()], {
      error: 'expected an ISO 8601 date-time with offset (2026-01-31T12:00:00Z) or a date (2026-01-31)',
    }),
    z.transform((value) => new Date(value)),
  )
  .check(z.refine((at) => !Number.isNaN(at.getTime()), 'not a real date'));

/** The customer in the path: our `cust_…` id or the provider's customer id (bounded: it becomes a key). */
const customerIdParams = z.object({ id: z.string().check(z.minLength(1), z.maxLength(255)) });

export const listCustomersQuery = z
  .object({
    has_failed_payment: z
      .optional(booleanQuery)
      .clone()
      .register(z.globalRegistry, { description: 'true: only customers with an open recovery (pending, retrying or paused); false: only those without.' }),
    search: z
      .optional(
        z.pipe(
          z.string().check(z.maxLength(200)),
          z.transform((value) => value.trim()),
        ),
      )
      .clone()
      .register(z.globalRegistry, {
        description:
          'Prefix of the email, of the name, or of any word of either (`Ocean` finds "Frank Ocean"; case- and accent-insensitive: `muller` finds "Gina Müller"), or the exact provider customer id; matches of any form, newest first. A search reads every match, and pagination.total is their exact number.',
      }),
    created_after: z.optional(createdBound).clone().register(z.globalRegistry, {
      description: 'Inclusive. ISO 8601 with offset, or YYYY-MM-DD (midnight UTC). With a created range, pagination.total is counted over the range.',
    }),
    created_before: z.optional(createdBound).clone().register(z.globalRegistry, {
      description: 'Exclusive. ISO 8601 with offset, or YYYY-MM-DD (midnight UTC). With a created range, pagination.total is counted over the range.',
    }),
    ...offsetPagingQuery,
  })
  .check(
    z.superRefine((query, context) => {
      // As GET /payments: an empty or inverted range is a mistake worth naming, not an empty list.
      if (query.created_after !== undefined && query.created_before !== undefined && query.created_after >= query.created_before) {
        context.addIssue({ code: 'custom', path: ['created_before'], message: 'created_before must be later than created_after' });
      }
    }),
  );

const customerPaymentsQuery = z.object({
  status: z
    .optional(z.enum(Object.keys(PAYMENT_STATUS_FILTERS) as [keyof typeof PAYMENT_STATUS_FILTERS, ...(keyof typeof PAYMENT_STATUS_FILTERS)[]]))
    .clone()
    .register(z.globalRegistry, {
      description: "A's statuses, or B's aliases failed (pending, retrying or paused) and active (pending or retrying).",
    }),
  ...offsetPagingQuery,
});

const customerRecoveriesQuery = z.object({
  status: z.optional(z.enum(RECOVERY_STATUS_FILTERS)).clone().register(z.globalRegistry, { description: "A's statuses, or B's active (pending or retrying)." }),
  ...offsetPagingQuery,
});

// ---- Responses ----

export const Customer = z
  .object({
    id: z.string(),
    provider_customer_id: z.nullable(z.string()),
    email: z.string(),
    name: z.nullable(z.string()),
    psp: z.nullable(z.string()),
    total_payments: z.number().check(z.int()),
    failed_payments: z.number().check(z.int()),
    recovered_payments: z.number().check(z.int()),
    currency: z.nullable(z.string()).clone().register(z.globalRegistry, {
      description: "The currency of the customer's most recent payment: the currency of lifetime_value_cents and total_revenue_cents.",
    }),
    lifetime_value_cents: z.number().check(z.int()).clone().register(z.globalRegistry, {
      description: 'Lifetime value in `currency` (smallest unit); other currencies are in lifetime_value_by_currency, never added in.',
    }),
    total_revenue_cents: z.number().check(z.int()).clone().register(z.globalRegistry, { description: 'B alias of lifetime_value_cents.' }),
    lifetime_value_by_currency: AmountsByCurrency,
    total_revenue_by_currency: AmountsByCurrency.clone().register(z.globalRegistry, { description: 'B alias of lifetime_value_by_currency.' }),
    timezone: z.nullable(z.string()).clone().register(z.globalRegistry, {
      description:
        "The customer's IANA time zone, from the newest event that gave one (ingest's `metadata.customer_timezone`); retries and campaign steps are timed in it. Null when not known: the merchant's quiet-hours zone is used.",
    }),
    phone: z.nullable(z.string()).clone().register(z.globalRegistry, {
      description:
        "The customer's E.164 phone number, from the newest event that gave one (ingest's `metadata.customer_phone`); campaign SMS and WhatsApp messages go to it. Null when not known.",
    }),
    card_expiry: z
      .nullable(
        z.object({
          month: z.number().check(z.int()).clone().register(z.globalRegistry, { description: '1-12.' }),
          year: z.number().check(z.int()).clone().register(z.globalRegistry, { description: '4 digits.' }),
        }),
      )
      .clone()
      .register(z.globalRegistry, {
        description:
          "The expiry of the customer's card on file, from the newest event that carried it (ingest's `metadata.card_exp_month` and `card_exp_year`, a Stripe charge or payment method, a Chargebee card); a new card without one clears it. Null when not known. The daily card-expiry check enrolls customers whose card expires this month or next in the merchant's `card_expiring` campaign.",
      }),
    created_at: z.string(),
  })
  .clone()
  .register(z.globalRegistry, { id: 'Customer' });

export const RecoveryStats = z
  .object({
    total_failed: z.number().check(z.int()),
    total_recovered: z.number().check(z.int()),
    recovery_rate: z.number(),
    total_recovered_cents: z
      .number()
      .check(z.int())
      .clone()
      .register(z.globalRegistry, { description: "Recovered in the customer's `currency` (smallest unit)." }),
    total_recovered_by_currency: AmountsByCurrency,
  })
  .clone()
  .register(z.globalRegistry, { id: 'CustomerRecoveryStats' });

const paged = <T extends z.ZodMiniType>(item: T) => z.object({ data: z.array(item), pagination: OffsetPagination, meta: ResponseMeta });
const single = <T extends z.ZodMiniType>(data: T) => z.object({ data, meta: ResponseMeta });

const PausedAll = single(
  z.object({ customer_id: z.string(), status: z.literal('paused'), paused_count: z.number().check(z.int()), payment_ids: z.array(z.string()) }),
);
const ResumedAll = single(
  z.object({ customer_id: z.string(), status: z.literal('active'), resumed_count: z.number().check(z.int()), payment_ids: z.array(z.string()) }),
);

// ---- One schemas object per operation (attached to its row in routes.ts) ----

export const listCustomersSchemas = { query: listCustomersQuery, responses: { 200: paged(Customer) } } as const;
export const getCustomerByEmailSchemas = {
  params: z.object({
    email: z.string().check(z.trim(), z.maxLength(320), z.regex(/^[^\s@]+@[^\s@]+$/, 'expected an email address')),
  }),
  responses: { 200: single(z.extend(Customer, { recovery_stats: RecoveryStats })) },
} as const;
export const getCustomerSchemas = { params: customerIdParams, responses: { 200: single(Customer) } } as const;
export const listCustomerPaymentsSchemas = { params: customerIdParams, query: customerPaymentsQuery, responses: { 200: paged(PaymentData) } } as const;
export const listCustomerRecoveriesSchemas = { params: customerIdParams, query: customerRecoveriesQuery, responses: { 200: paged(Recovery) } } as const;
export const pauseAllCustomerPaymentsSchemas = { params: customerIdParams, responses: { 200: PausedAll } } as const;
export const resumeAllCustomerPaymentsSchemas = { params: customerIdParams, responses: { 200: ResumedAll } } as const;
export const deleteCustomerSchemas = {
  params: customerIdParams,
  responses: {
    200: single(
      z.object({
        deleted: z.literal(true),
        customer_id: z.string(),
        records_deleted: z.number().check(z.int()).clone().register(z.globalRegistry, { description: 'Items erased (A).' }),
      }),
    ),
  },
} as const;
