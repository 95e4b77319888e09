import * as z from '#shared/zod';
import { CARD_EXPIRY_YEARS } from '#core/customers';
import { isPossibleId } from '#core/ids';
import { INGEST_EVENT_TYPES } from '#core/ingest/ingest-event';
import { CURRENCIES } from '#core/money';
import { PSPS } from '#core/providers';
import { TimeZoneName } from '#api/envelope-schemas';
import { isE164 } from '#core/messages';

/** Largest amount accepted, in the smallest unit (far above any single subscription charge). */
export const MAX_AMOUNT = 999_999_999_999;

/** Bounds of free-form metadata (Stripe-like), so every accepted value can be stored as sent. */
export const METADATA_LIMITS = { keys: 50, keyLength: 40, stringLength: 500, depth: 3, bytes: 16 * 1024 } as const;

// A number, or a string of digits as card fields often travel in metadata (`"07"`); checked as a pair in IngestMetadata.
const CardExpiryPart = z.union([z.number().check(z.int()), z.string().check(z.regex(/^\s*\d{1,4}\s*$/, 'a number'))]);

const Amount = z.number().check(z.int(), z.gte(0), z.lte(MAX_AMOUNT));
// Held to the path-id rule too (core/ids.ts), so that every id stored can be named in a path.
const Id = z
  .string()
  .check(
    z.trim(),
    z.minLength(1),
    z.maxLength(255),
    z.refine(isPossibleId, 'ids have no control characters, no whitespace but inner spaces, and are at most 320 bytes'),
  );

/**
 * Keys that metadata objects may not use, at any depth: stored, `constructor` makes the DynamoDB
 * marshaller take the object for a class instance (or a Set or Map), and `__proto__`/`prototype`
 * replace prototypes on the way in.
 */
export const RESERVED_METADATA_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** What a free-form metadata value may be, or a message saying why not (DynamoDB's limits included). */
function metadataProblem(value: unknown, depth: number): string | undefined {
  if (value === null || typeof value === 'boolean') return undefined;
  if (typeof value === 'string')
    return value.length > METADATA_LIMITS.stringLength ? `strings are at most ${METADATA_LIMITS.stringLength} characters` : undefined;
  if (typeof value === 'number') {
    const size = Math.abs(value);
    // The SDK stores no unsafe integer (beyond 2^53) and DynamoDB nothing below 1e-130 in size.
    return size === 0 || (size >= 1e-130 && size <= Number.MAX_SAFE_INTEGER)
      ? undefined
      : `numbers are 0 or between 1e-130 and ${Number.MAX_SAFE_INTEGER} in size`;
  }
  if (depth >= METADATA_LIMITS.depth) return `values nest at most ${METADATA_LIMITS.depth} levels`;
  const entries = Array.isArray(value) ? value.map((inner, index) => [String(index), inner] as const) : Object.entries(value as Record<string, unknown>);
  if (entries.length > METADATA_LIMITS.keys) return `objects and arrays hold at most ${METADATA_LIMITS.keys} entries`;
  for (const [key, inner] of entries) {
    if (key.length === 0 || key.length > METADATA_LIMITS.keyLength) return `keys are 1 to ${METADATA_LIMITS.keyLength} characters`;
    if (RESERVED_METADATA_KEYS.has(key)) return `${key} is a reserved key`;
    const problem = metadataProblem(inner, depth + 1);
    if (problem !== undefined) return `${key}: ${problem}`;
  }
  return undefined;
}

const MetadataValue = z.unknown().check(
  z.superRefine((value, ctx) => {
    const problem = metadataProblem(value, 1);
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
  }),
);

/**
 * Free-form metadata, kept on a payment the event records. Recognised keys (all strings):
 * - `event_id`: the sender's id of this event; a second delivery with it is a duplicate.
 * - `payment_id`, `provider_payment_id`, `charge_id`: the provider's payment id (aliases: when
 *   several are given they must agree); dedupes payment_failed and finds the payment other events are about.
 * - `psp`: the provider; one of the 13 psp ids is recorded as the payment's psp, anything else as `ingest`.
 * - `customer_name`, `provider_customer_id`: stored on a customer the event creates.
 * - `customer_timezone`: the customer's IANA time zone; retries are timed in their local time.
 * - `customer_phone`: the customer's E.164 phone number; campaign SMS and WhatsApp messages go to it.
 * - `subscription_id`, `invoice_id`: link the payment; subscription_cancelled ends only that
 *   subscription's recoveries; invoice_id finds the payment of payment_succeeded and charge_refunded.
 * - `network_code`, `network`, `advice_code`: card-network signals for classification.
 * - `card_exp_month` (1-12), `card_exp_year` (4 digits), given together: the expiry of the card on
 *   file, kept on the customer (the newest wins); on payment_method_updated the new card's (absent: cleared).
 */
export const IngestMetadata = z
  .catchall(
    z.object({
      event_id: z.optional(Id).clone().register(z.globalRegistry, {
        description: "The sender's id of this event; a second delivery with the same id changes nothing and answers `duplicate`.",
      }),
      payment_id: z.optional(Id).clone().register(z.globalRegistry, { description: "The provider's payment id (alias of provider_payment_id and charge_id)." }),
      provider_payment_id: z.optional(Id).clone().register(z.globalRegistry, { description: 'Alias of payment_id.' }),
      charge_id: z.optional(Id).clone().register(z.globalRegistry, { description: 'Alias of payment_id.' }),
      psp: z
        .optional(z.string().check(z.maxLength(50)))
        .clone()
        .register(z.globalRegistry, {
          description: `The provider: one of ${PSPS.join(', ')} is recorded as the payment's psp; anything else is recorded as \`ingest\`.`,
        }),
      customer_name: z
        .optional(z.string().check(z.maxLength(200)))
        .clone()
        .register(z.globalRegistry, { description: 'Name of a customer the event creates.' }),
      provider_customer_id: z
        .optional(Id)
        .clone()
        .register(z.globalRegistry, { description: "The provider's customer id, stored on a customer the event creates." }),
      customer_timezone: z.optional(TimeZoneName).clone().register(z.globalRegistry, {
        description:
          "The customer's IANA time zone (`America/Los_Angeles`); kept on the customer, the newest one given wins. Insufficient-funds retries go out in the customer's local mornings and on their local paydays; without it, the merchant's quiet-hours zone is used, else UTC.",
      }),
      customer_phone: z
        .optional(z.string().check(z.refine(isE164, { message: 'customer_phone must be an E.164 phone number (+ then 8-15 digits).' })))
        .clone()
        .register(z.globalRegistry, {
          description:
            "The customer's phone number in E.164 (`+14155550123`); kept on the customer, the newest one given wins. Campaign SMS and WhatsApp messages go to it (an email step also goes out by SMS when your channel setting lists sms: docs/experiments.md).",
        }),
      subscription_id: z
        .optional(Id)
        .clone()
        .register(z.globalRegistry, { description: 'The subscription of the payment; subscription_cancelled ends only its recoveries.' }),
      invoice_id: z
        .optional(Id)
        .clone()
        .register(z.globalRegistry, { description: 'The invoice of the payment; payment_succeeded and charge_refunded find the payment by it.' }),
      network_code: z
        .optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(10)))
        .clone()
        .register(z.globalRegistry, { description: 'Raw card-network response code (Visa category 1 codes forbid retries).' }),
      network: z
        .optional(z.string().check(z.maxLength(30)))
        .clone()
        .register(z.globalRegistry, { description: 'Card network: visa, mastercard, ...' }),
      advice_code: z
        .optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(40)))
        .clone()
        .register(z.globalRegistry, { description: 'Mastercard merchant advice code, Visa advice code or Stripe advice_code.' }),
      card_exp_month: z.optional(CardExpiryPart).clone().register(z.globalRegistry, {
        description:
          "The card on file's expiry month, 1-12 (with card_exp_year): kept on the customer, the newest wins; the daily card-expiry check enrolls customers whose card expires this month or next in the merchant's `card_expiring` campaign. On payment_method_updated, the new card's (without these keys the customer's expiry is cleared).",
      }),
      card_exp_year: z
        .optional(CardExpiryPart)
        .clone()
        .register(z.globalRegistry, {
          description: `The card on file's expiry year, 4 digits (${CARD_EXPIRY_YEARS.min}-${CARD_EXPIRY_YEARS.max}), with card_exp_month.`,
        }),
    }),
    MetadataValue,
  )
  .check(
    z.superRefine((metadata, ctx) => {
      const keys = Object.keys(metadata);
      const badKey = keys.find((key) => key.length === 0 || key.length > METADATA_LIMITS.keyLength);
      const reserved = keys.find((key) => RESERVED_METADATA_KEYS.has(key));
      // The values are checked (nesting bounded) before anything serialises them.
      const badValue = keys.find((key) => metadataProblem(metadata[key], 1) !== undefined);
      if (keys.length > METADATA_LIMITS.keys) ctx.addIssue({ code: 'custom', message: `metadata holds at most ${METADATA_LIMITS.keys} keys` });
      else if (badKey !== undefined)
        ctx.addIssue({ code: 'custom', path: [badKey], message: `metadata keys are 1 to ${METADATA_LIMITS.keyLength} characters` });
      else if (reserved !== undefined) ctx.addIssue({ code: 'custom', path: [reserved], message: `${reserved} is a reserved key` });
      else if (badValue !== undefined) return;
      else if (Buffer.byteLength(JSON.stringify(metadata)) > METADATA_LIMITS.bytes)
        ctx.addIssue({ code: 'custom', message: `metadata is at most ${METADATA_LIMITS.bytes / 1024} KB as JSON` });
      const ids = (['payment_id', 'provider_payment_id', 'charge_id'] as const).filter((key) => metadata[key] !== undefined);
      const [first, ...others] = ids;
      const disagreeing = others.find((key) => first !== undefined && metadata[key] !== metadata[first]);
      if (disagreeing !== undefined) ctx.addIssue({ code: 'custom', path: [disagreeing], message: `${disagreeing} must agree with ${first}` });
      const month = metadata.card_exp_month === undefined ? undefined : Number(metadata.card_exp_month);
      const year = metadata.card_exp_year === undefined ? undefined : Number(metadata.card_exp_year);
      if (month === undefined && year === undefined) return;
      if (month === undefined) ctx.addIssue({ code: 'custom', path: ['card_exp_month'], message: 'card_exp_month is required with card_exp_year' });
      else if (month < 1 || month > 12) ctx.addIssue({ code: 'custom', path: ['card_exp_month'], message: 'card_exp_month is 1 to 12' });
      else if (year === undefined) ctx.addIssue({ code: 'custom', path: ['card_exp_year'], message: 'card_exp_year is required with card_exp_month' });
      else if (year < CARD_EXPIRY_YEARS.min || year > CARD_EXPIRY_YEARS.max)
        ctx.addIssue({
          code: 'custom',
          path: ['card_exp_year'],
          message: `card_exp_year is a 4-digit year, ${CARD_EXPIRY_YEARS.min} to ${CARD_EXPIRY_YEARS.max}`,
        });
    }),
  )
  .clone()
  .register(z.globalRegistry, {
    description:
      'Free-form metadata (at most 50 keys of 1-40 characters, strings of at most 500 characters, 16 KB as JSON, nesting 3 levels; the keys `constructor`, `prototype` and `__proto__` are reserved at every level), kept on a recorded payment; the keys described here are recognised.',
  });

export const IngestPaymentEventBody = z
  .object({
    // A string piped into the enum, so that a missing event_type is a missing field (400), not a bad value.
    event_type: z.pipe(
      z
        .string()
        .clone()
        .register(z.globalRegistry, { enum: [...INGEST_EVENT_TYPES] }),
      z.enum(INGEST_EVENT_TYPES),
    ),
    amount_cents: z.optional(Amount).clone().register(z.globalRegistry, { description: 'Smallest currency unit (B); required unless `amount` is given.' }),
    amount: z.optional(Amount).clone().register(z.globalRegistry, { description: 'Alias of amount_cents (A); when both are given they must agree.' }),
    currency: z.pipe(
      z.pipe(
        z
          .string()
          .clone()
          .register(z.globalRegistry, { enum: [...CURRENCIES] })
          .clone()
          .register(z.globalRegistry, { description: `One of ${CURRENCIES.join(', ')}; upper case is accepted and stored lowercase.` }),
        z.transform((value) => value.toLowerCase()),
      ),
      z.enum(CURRENCIES),
    ),
    customer_email: z.email().check(z.maxLength(254)),
    decline_code: z
      .nullish(z.string().check(z.trim(), z.minLength(1), z.maxLength(100)))
      .clone()
      .register(z.globalRegistry, { description: "The provider's decline code (payment_failed)." }),
    metadata: z.optional(IngestMetadata),
  })
  .check(
    z.superRefine((body, ctx) => {
      if (body.amount_cents === undefined && body.amount === undefined) {
        ctx.addIssue({ code: 'invalid_type', expected: 'number', path: ['amount_cents'], message: 'Required' });
      } else if (body.amount_cents !== undefined && body.amount !== undefined && body.amount !== body.amount_cents) {
        ctx.addIssue({ code: 'custom', path: ['amount'], message: 'amount and amount_cents must agree' });
      } else if (body.event_type === 'payment_failed' && (body.amount_cents ?? body.amount) === 0) {
        ctx.addIssue({
          code: 'custom',
          path: [body.amount_cents === undefined ? 'amount' : 'amount_cents'],
          message: 'a failed payment has a positive amount',
        });
      }
    }),
  )
  .clone()
  .register(z.globalRegistry, { anyOf: [{ required: ['amount_cents'] }, { required: ['amount'] }] });

export const IngestPaymentEventData = z.object({
  event_id: z
    .string()
    .clone()
    .register(z.globalRegistry, { description: "Our id of this ingested event (`evt_…`); a duplicate answers with the first delivery's." }),
  event_type: z.enum(INGEST_EVENT_TYPES),
  status: z.enum(['processed', 'duplicate', 'refused']).clone().register(z.globalRegistry, {
    description:
      "`processed`: handled by this delivery (possibly changing nothing, when no customer or payment matched). `duplicate`: the event was already ingested (same metadata.event_id, or same type and provider payment id) or its payment already recorded; nothing changed and the other fields are the first delivery's. `refused`: the event names a customer who was erased (DELETE /customers/{id}); nothing was recorded.",
  }),
  recovery_initiated: z
    .boolean()
    .clone()
    .register(z.globalRegistry, { description: 'A payment_failed opened a recovery that is open (not ended at once by a do-not-retry decline).' }),
  payment_event_id: z
    .nullable(z.string())
    .clone()
    .register(z.globalRegistry, { description: 'The payment the event was about (recorded, recovered or refunded), else null.' }),
  recovery_id: z.nullable(z.string()).clone().register(z.globalRegistry, { description: 'Its recovery, else null.' }),
  affected_payment_ids: z.array(z.string()).clone().register(z.globalRegistry, { description: 'Every payment the event changed.' }),
});

export const IngestPaymentEventResponse = z.object({
  data: IngestPaymentEventData,
  meta: z.object({ timestamp: z.string(), request_id: z.string(), merchant_id: z.optional(z.string()) }),
});

export const ingestPaymentEventSchemas = { body: IngestPaymentEventBody, responses: { 200: IngestPaymentEventResponse } } as const;
