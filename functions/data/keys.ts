/**
 * Physical key formats of the single table. Nothing outside this module spells a key.
 *
 * Access patterns (pattern | key condition | index):
 * | pattern                                   | key condition                                      | index |
 * |-------------------------------------------|----------------------------------------------------|-------|
 * | merchant by id                            | PK = M#<merchant_id>, SK = MERCHANT                | table |
 * | API key by hash (authentication)          | PK = APIKEY#<sha256>, SK = APIKEY                  | table |
 * | API keys of a merchant                    | PK = M#<merchant_id>, SK begins_with KEY#          | table |
 * | API key by id (revoke)                    | PK = KEYID#<key_id>, SK = APIKEY                   | table |
 * | provider webhook secret of a merchant     | PK = M#<merchant_id>, SK = PSP#<psp>               | table |
 * | provider secrets of a merchant            | PK = M#<merchant_id>, SK begins_with PSP#          | table |
 * | provider API key of a merchant (fetches)  | PK = M#<merchant_id>, SK = PSPAPI#<psp>            | table |
 * | merchants (operator listing, offline)     | GSI1PK = MERCHANTS, GSI1SK = <created_at>#<id>     | GSI1  |
 * | rate-limit window of a key's bucket       | PK = RL#M#<merchant_id>, SK = <bucket>#<start>     | table |
 * | rate-limit window of an IP (widget init)  | PK = RL#IP#<ip>, SK = <bucket>#<start>             | table |
 * | record of an Idempotency-Key              | PK = M#<merchant_id>, SK = IDEM#<sha256 of key>    | table |
 * | ingested event, by its dedupe key         | PK = M#<merchant_id>, SK = INGEST#<sha256 of key>  | table |
 *
 * Payments and recoveries (one item: `pe_<body>` and `rec_<body>` share the body; bodies are
 * time-ordered, so SK order is creation order):
 * | GET /payments/{id}, /recoveries/{id}, /invoices/{id} | PK = M#<m>, SK = PAY#<body>  | table |
 * | GET /payments/{provider charge id}         | PK = M#<m>, SK = PAYREF#<provider id> → body (unique) | table |
 * | GET /invoices/{invoice id}                 | PK = M#<m>, SK = INVREF#<invoice id> → body  | table |
 * | GET /payments, newest first (created range)| PK = M#<m>, SK between PAY#<floor(t1)>…PAY#<floor(t2)> | table |
 * | GET /payments?status=… (and B aliases)     | GSI1PK = M#<m>#PAYS#<status>, GSI1SK = <created_at>#<body> | GSI1 |
 * | GET /payments?decline_category=…           | GSI3PK = M#<m>#PAYCAT#<category>, GSI3SK = <created_at>#<body> | GSI3 |
 * | ?psp=… with either of the above            | the index above + filter on psp (documented)  |       |
 * | GET /customers/{id}/payments, /recoveries  | GSI2PK = M#<m>#C#<customer>, GSI2SK begins_with PAY# | GSI2 |
 * | GET /subscriptions/{id}, failed invoices   | PK = M#<m>, SK begins_with SUBINV#<subscription>#  | table |
 * | GET /payments/{id}/timeline, invoice timeline | PK = M#<m>, SK begins_with TL#<body>#          | table |
 * | list totals (pagination.total; written by the stream consumer) | PK = M#<m>, SK = COUNT#PAY (one counter per filter combination) | table |
 *
 * Retry engine:
 * | retries due now, every merchant (every-minute job) | GSI4PK = DUE#<shard 0-7>, GSI4SK <= <now>#~ (sparse: scheduled or in-flight retries) | GSI4 |
 * | a card's attempts and block (caps)          | PK = M#<m>, SK = CARD#<card identity>          | table |
 * | the gateway of a provider                   | PK = M#<m>, SK = GATEWAY#<psp>                 | table |
 * | a sandbox charge by idempotency key         | PK = M#<m>, SK = SANDBOXCHG#<key>              | table |
 * | a payment's sandbox charges (tests, bench)  | PK = M#<m>, SK begins_with SANDBOXCHG#retry-<payment id>- | table |
 * | outbound events, oldest first               | PK = M#<m>, SK begins_with EVT#                | table |
 *
 * Customers:
 * | GET /customers/{id}                        | PK = M#<m>, SK = CUST#<body>                  | table |
 * | GET /customers/by-email/{email}            | PK = M#<m>, SK = CUSTEMAIL#<email> → id (unique) | table |
 * | GET /customers/{provider customer id}      | PK = M#<m>, SK = CUSTREF#<provider id> → id (unique) | table |
 * | GET /customers, newest first (created range) | PK = M#<m>, SK between CUST#<floor(t1)>…      | table |
 * | ?search= email prefix                      | GSI1PK = M#<m>#CUSTEMAIL, GSI1SK begins_with <email> | GSI1 |
 * | ?search= name prefix                       | GSI3PK = M#<m>#CUSTNAME, GSI3SK begins_with <name> | GSI3 |
 * | ?has_failed_payment=true                   | GSI4PK = M#<m>#CUSTOPEN, GSI4SK = <created_at>#<body> (sparse) | GSI4 |
 * | customer totals (written by the stream consumer) | PK = M#<m>, SK = COUNT#CUST                   | table |
 * | everything about a customer (erasure)      | GSI2PK = M#<m>#C#<customer>                   | GSI2  |
 *
 * Messages (the communication log) and the local email outbox:
 * | message by id (dunning consumer, callbacks) | PK = M#<m>, SK = MSG#<body> (`msg_<body>`, time-ordered) | table |
 * | sent emails of the local outbox, oldest first | PK = M#<m>, SK begins_with OUTBOX#             | table |
 * | one outbox email by its dedupe key          | PK = M#<m>, SK = OUTBOX#<dedupe key>          | table |
 * | a customer's messages and outbox emails (erasure) | GSI2PK = M#<m>#C#<customer>, GSI2SK begins_with MSG# / OUTBOX# | GSI2 |
 * | message by the provider's message id (delivery callbacks) | PK = MSGREF#<provider message id>, SK = MSGREF → merchant + message id | table |
 * | a recipient on the merchant's suppression list (dunning consumer) | PK = M#<m>, SK = SUPP#<lowercased email> | table |
 * | a customer's message refs and suppressions (erasure) | GSI2PK = M#<m>#C#<customer>, GSI2SK begins_with MSGREF# / SUPP# | GSI2 |
 *
 * Provider webhook deliveries (raw payloads, 30-day TTL):
 * | one stored delivery (inbound consumer)      | PK = M#<m>, SK = WHK#<body> (`whk_<body>`, time-ordered) | table |
 * | a customer's stored deliveries (erasure)    | GSI2PK = M#<m>#C#<customer>, GSI2SK begins_with WHK# | GSI2 |
 * | a delivery's link to each further customer it concerns (a batch: the delivery is filed under the first) | PK = M#<m>, SK = WHKLINK#<body>#<customer> | table |
 * | a customer's links to batch deliveries (erasure deletes each link and its delivery) | GSI2PK = M#<m>#C#<customer>, GSI2SK begins_with WHKLINK# | GSI2 |
 *
 * Settings and the recovery goal's progress:
 * | GET/POST /settings/quiet-hours, retry engine | PK = M#<m>, SK = SETTINGS#QUIET_HOURS          | table |
 * | GET/POST /settings/recovery-goal            | PK = M#<m>, SK = SETTINGS#RECOVERY_GOAL        | table |
 * | recovery progress of a month/quarter/year (payments by the month they failed in; written by the stream consumer) | BatchGet PK = M#<m>, SK = COUNT#MONTH#<YYYY-MM> (1, 3 or 12) | table |
 *
 * Counters and analytics rollups, written only by the table-stream consumer (functions/consumers/table-stream.ts;
 * DESIGN §2: no request-path write touches a shared counter item). A rollup item holds one merchant's
 * counters of one family (PAY: payments by failure cohort; CAMP: payments by campaign; MSG:
 * messages by send time), one granularity (H: hour, D: day, UTC) and one bucket, for one
 * combination of dimension values (`dims`, also stored as an attribute):
 * | rollups of a family over a range of buckets | PK = M#<m>#RU#<family>#<H or D>, SK between <first bucket>#…<last bucket>#~ | table |
 * | the open (at-risk) state: counts and amounts by status and currency | PK = M#<m>, SK = COUNT#OPEN | table |
 * | a stream record already applied (idempotency, 48 h TTL) | PK = M#<m>, SK = APPLIED#<stream event id> | table |
 *
 * Pre-computed retry scores (the lgbm tier of POST /scoring/retry; seeded by POST /api/internal/scoring/update-lookup):
 * | the score of one lookup key (core/scoring/lookup-key.ts) | PK = SCORELOOKUP#<lookup key>, SK = SCORELOOKUP | table |
 * Not under `M#`: the scores are one offline model's output for every merchant, keyed by decline
 * code, attempt, amount band and currency, and hold nothing of any merchant or customer. Each key
 * is its own partition, so the request path's GetItem spreads over partitions instead of heating one.
 *
 * Every item about a customer carries GSI2PK = M#<m>#C#<customer>, so erasure finds all of it
 * with one Query, whatever later features add.
 *
 * A few kinds of item do not start with `M#`, by necessity: the API-key hash item (the
 * merchant is not known until the key is read), the key-id lookup (the operator CLI revokes
 * by key id), and rate-limit windows. Windows live under their own `RL#` prefix so that IAM can
 * let read-only functions count requests there and write nowhere else (`dynamodb:LeadingKeys`);
 * a merchant's windows still carry the merchant in the key, and per-IP windows (widget init)
 * count an address across merchants. The first two carry the merchant id as an attribute and are written in the same
 * transaction as the merchant's own key item. Rate-limit windows and idempotency records expire
 * through the TTL attribute.
 *
 * The key-id lookup is an item of the table rather than a GSI1 key so that revoking a key right
 * after creating it reads it with a strongly consistent GetItem (a GSI is eventually consistent),
 * and so that its `attribute_not_exists` condition keeps key ids unique.
 *
 * The message reference (`MSGREF#<provider message id>`) cannot start with the merchant either: a
 * delivery callback comes from the service's own messaging/email provider, to one service-wide
 * URL, and names only the provider's message id, so the merchant is what the reference finds. It
 * is written in the transaction that marks the message sent, carries the merchant id and message
 * id as attributes, and is tagged with the customer's GSI2 partition so erasure removes it.
 *
 * Single-use tokens of the delivery callbacks (Mailgun-style legacy email), kept a little longer
 * than the ±300 s window through the TTL attribute:
 * | a callback token spent before (conditional put, attribute_not_exists) | PK = CBTOKEN#<sha256 of token>, SK = CBTOKEN#<source> | table |
 * Not under `M#` either: the tokens are the service's own email provider account's, global to the
 * service, and a token is spent before the callback's event data (and so its merchant) is read.
 * Only the token's hash is stored, with nothing about the message or its recipient.
 */

/** Single-use callback tokens (access pattern above; functions/data/callback-token-repository.ts). */
export const callbackTokenKeys = {
  token: (source: string, tokenHash: string): ItemKey => ({ PK: `CBTOKEN#${tokenHash}`, SK: `CBTOKEN#${source}` }),
} as const;

/** Pre-computed retry scores (access pattern above; functions/data/score-lookup-repository.ts). */
export const scoreLookupKeys = {
  entry: (lookupKey: string): ItemKey => ({ PK: `SCORELOOKUP#${lookupKey}`, SK: 'SCORELOOKUP' }),
} as const;

export const ENTITY = {
  scoreLookup: 'score_lookup',
  callbackToken: 'callback_token',
  merchant: 'merchant',
  apiKey: 'api_key',
  apiKeyHash: 'api_key_hash',
  providerSecret: 'provider_secret',
  providerApiKey: 'provider_api_key',
  apiKeyId: 'api_key_id',
  rateLimitWindow: 'rate_limit_window',
  idempotencyRecord: 'idempotency_record',
  payment: 'payment',
  paymentRef: 'payment_ref',
  invoiceRef: 'invoice_ref',
  subscriptionInvoice: 'subscription_invoice',
  timelineEntry: 'timeline_entry',
  counters: 'counters',
  rollup: 'rollup',
  streamApplied: 'stream_applied',
  customer: 'customer',
  customerRef: 'customer_ref',
  ingestEvent: 'ingest_event',
  message: 'message',
  outboxEmail: 'outbox_email',
  webhookLog: 'webhook_log',
  webhookLogLink: 'webhook_log_link',
  messageRef: 'message_ref',
  suppression: 'suppression',
  settings: 'settings',
  cardLedger: 'card_ledger',
  gatewayConfig: 'gateway_config',
  sandboxCharge: 'sandbox_charge',
  outboundEvent: 'outbound_event',
  deadLetteredEvent: 'dead_lettered_event',
} as const;

export interface ItemKey {
  readonly PK: string;
  readonly SK: string;
}

const merchantPk = (merchantId: string): string => `M#${merchantId}`;

/** Leading characters of every rate-limit window's partition key (IAM scopes read-only functions' writes to it). */
export const RATE_LIMIT_PREFIX = 'RL#';

export const keys = {
  merchant: (merchantId: string): ItemKey => ({ PK: merchantPk(merchantId), SK: 'MERCHANT' }),
  merchantListing: (createdAt: string, merchantId: string) => ({ GSI1PK: 'MERCHANTS', GSI1SK: `${createdAt}#${merchantId}` }),

  apiKeyByHash: (hash: string): ItemKey => ({ PK: `APIKEY#${hash}`, SK: 'APIKEY' }),
  apiKey: (merchantId: string, keyId: string): ItemKey => ({ PK: merchantPk(merchantId), SK: `KEY#${keyId}` }),
  apiKeyPrefix: (merchantId: string) => ({ PK: merchantPk(merchantId), SKPrefix: 'KEY#' }),
  apiKeyById: (keyId: string): ItemKey => ({ PK: `KEYID#${keyId}`, SK: 'APIKEY' }),

  providerSecret: (merchantId: string, psp: string): ItemKey => ({ PK: merchantPk(merchantId), SK: `PSP#${psp}` }),
  providerSecretPrefix: (merchantId: string) => ({ PK: merchantPk(merchantId), SKPrefix: 'PSP#' }),
  /** `PSPAPI#` does not begin with `PSP#`, so the secrets' prefix never lists these. */
  providerApiKey: (merchantId: string, psp: string): ItemKey => ({ PK: merchantPk(merchantId), SK: `PSPAPI#${psp}` }),

  rateLimitWindow: (merchantId: string, bucket: string, windowStart: number): ItemKey => ({
    PK: `${RATE_LIMIT_PREFIX}M#${merchantId}`,
    SK: `${bucket}#${windowStart}`,
  }),
  ipRateLimitWindow: (ip: string, bucket: string, windowStart: number): ItemKey => ({ PK: `${RATE_LIMIT_PREFIX}IP#${ip}`, SK: `${bucket}#${windowStart}` }),

  idempotencyRecord: (merchantId: string, keyHash: string): ItemKey => ({ PK: merchantPk(merchantId), SK: `IDEM#${keyHash}` }),
} as const;

/** Payments, recoveries, their timelines and references (access patterns above). */
export const paymentKeys = {
  payment: (merchantId: string, body: string): ItemKey => ({ PK: merchantPk(merchantId), SK: `PAY#${body}` }),
  providerRef: (merchantId: string, providerPaymentId: string): ItemKey => ({ PK: merchantPk(merchantId), SK: `PAYREF#${providerPaymentId}` }),
  invoiceRef: (merchantId: string, invoiceId: string): ItemKey => ({ PK: merchantPk(merchantId), SK: `INVREF#${invoiceId}` }),
  subscriptionInvoice: (merchantId: string, subscriptionId: string, createdAt: string, body: string): ItemKey => ({
    PK: merchantPk(merchantId),
    SK: `SUBINV#${subscriptionId}#${createdAt}#${body}`,
  }),
  subscriptionInvoicePrefix: (merchantId: string, subscriptionId: string) => ({ PK: merchantPk(merchantId), SKPrefix: `SUBINV#${subscriptionId}#` }),
  timelineEntry: (merchantId: string, body: string, at: string, seq: string): ItemKey => ({ PK: merchantPk(merchantId), SK: `TL#${body}#${at}#${seq}` }),
  timelinePrefix: (merchantId: string, body: string) => ({ PK: merchantPk(merchantId), SKPrefix: `TL#${body}#` }),
  /** The list totals, written by the table-stream consumer only (projections/payment-counters.ts). */
  counters: (merchantId: string): ItemKey => ({ PK: merchantPk(merchantId), SK: 'COUNT#PAY' }),
  paymentPrefix: 'PAY#',
  /**
   * GSI attributes of a payment item for its status, category and customer, and (only while a
   * retry is scheduled or in flight) its place in the due-retry index.
   */
  indexes: (
    merchantId: string,
    p: { status: string; decline_category: string; customer_id: string; created_at: string; body: string; next_retry_at: string | null },
  ) => ({
    GSI1PK: `${merchantPk(merchantId)}#PAYS#${p.status}`,
    GSI1SK: `${p.created_at}#${p.body}`,
    GSI2PK: customerDataPk(merchantId, p.customer_id),
    GSI2SK: `PAY#${p.body}`,
    GSI3PK: `${merchantPk(merchantId)}#PAYCAT#${p.decline_category}`,
    GSI3SK: `${p.created_at}#${p.body}`,
    ...(p.status === 'retrying' && p.next_retry_at !== null ? dueRetryKeys.entry(merchantId, p.body, p.next_retry_at) : {}),
  }),
  statusIndexPk: (merchantId: string, status: string) => `${merchantPk(merchantId)}#PAYS#${status}`,
  categoryIndexPk: (merchantId: string, category: string) => `${merchantPk(merchantId)}#PAYCAT#${category}`,
} as const;

/** Shards of the due-retry index: writes of many retries due at once spread over this many partitions. */
export const DUE_RETRY_SHARDS = 8;

/** Which shard a payment's due entry lives in: a stable hash of its body. */
const dueShardOf = (body: string): number => {
  let hash = 0;
  for (let i = 0; i < body.length; i += 1) hash = (hash * 31 + body.charCodeAt(i)) >>> 0;
  return hash % DUE_RETRY_SHARDS;
};

/**
 * The due-retry index (GSI4, sparse: only payments with a retry scheduled or in flight carry it).
 * Partition: one of DUE_RETRY_SHARDS shards, across merchants (the every-minute job serves them
 * all; the merchant is in the sort key). Sort key: the due time (ISO, UTC, so it sorts as time),
 * then the merchant and the payment body. The job reads each shard's entries with a sort key up
 * to "now" and nothing later: the time is the bucket, the shard spreads the writes. No separate
 * time buckets in the partition key: a bucket the job skipped (a run missed, a clock driven by a
 * test, a resumed payment whose time has passed) would strand its entries or need a lookback.
 */
export const dueRetryKeys = {
  shardPk: (shard: number): string => `DUE#${shard}`,
  entry: (merchantId: string, body: string, dueAt: string) => ({ GSI4PK: `DUE#${dueShardOf(body)}`, GSI4SK: `${dueAt}#${merchantId}#${body}` }),
  /** The merchant and payment body of a due entry's sort key. */
  parse: (sortKey: string): { dueAt: string; merchantId: string; body: string } | undefined => {
    const [dueAt, merchantId, body] = sortKey.split('#');
    return dueAt && merchantId && body ? { dueAt, merchantId, body } : undefined;
  },
  /** The highest sort key due at `at` ('~' sorts after every id character). */
  dueUpTo: (at: string): string => `${at}#~`,
} as const;

/**
 * What the retry engine keeps beside the payments: the card ledger (attempts per card in the last
 * 30 days and a do-not-retry block, core/card-caps.ts), the gateway chosen per provider, the
 * sandbox gateway's own charges (as a provider would keep them, by idempotency key), and the
 * outbound events recorded for the webhooks issue.
 */
export const retryKeys = {
  cardLedger: (merchantId: string, cardIdentity: string): ItemKey => ({ PK: merchantPk(merchantId), SK: `CARD#${cardIdentity}` }),
  gatewayConfig: (merchantId: string, psp: string): ItemKey => ({ PK: merchantPk(merchantId), SK: `GATEWAY#${psp}` }),
  sandboxCharge: (merchantId: string, idempotencyKey: string): ItemKey => ({ PK: merchantPk(merchantId), SK: `SANDBOXCHG#${idempotencyKey}` }),
  sandboxChargePrefix: (merchantId: string, prefix: string) => ({ PK: merchantPk(merchantId), SKPrefix: `SANDBOXCHG#${prefix}` }),
  outboundEvent: (merchantId: string, body: string): ItemKey => ({ PK: merchantPk(merchantId), SK: `EVT#${body}` }),
  outboundEventPrefix: (merchantId: string) => ({ PK: merchantPk(merchantId), SKPrefix: 'EVT#' }),
} as const;

/** Customers and their lookups (access patterns above). */
export const customerKeys = {
  customer: (merchantId: string, body: string): ItemKey => ({ PK: merchantPk(merchantId), SK: `CUST#${body}` }),
  byEmail: (merchantId: string, email: string): ItemKey => ({ PK: merchantPk(merchantId), SK: `CUSTEMAIL#${email}` }),
  byProviderId: (merchantId: string, providerCustomerId: string): ItemKey => ({ PK: merchantPk(merchantId), SK: `CUSTREF#${providerCustomerId}` }),
  /** The customer totals, written by the table-stream consumer only (projections/customer-counters.ts). */
  counters: (merchantId: string): ItemKey => ({ PK: merchantPk(merchantId), SK: 'COUNT#CUST' }),
  /** The identity a customer reference's sort key stands for (byEmail, byProviderId), for the erasure tombstone. */
  identityOfReference: (sortKey: string): { email: string } | { providerCustomerId: string } | undefined =>
    sortKey.startsWith('CUSTEMAIL#')
      ? { email: sortKey.slice('CUSTEMAIL#'.length) }
      : sortKey.startsWith('CUSTREF#')
        ? { providerCustomerId: sortKey.slice('CUSTREF#'.length) }
        : undefined,
  customerPrefix: 'CUST#',
  emailIndexPk: (merchantId: string) => `${merchantPk(merchantId)}#CUSTEMAIL`,
  nameIndexPk: (merchantId: string) => `${merchantPk(merchantId)}#CUSTNAME`,
  openIndexPk: (merchantId: string) => `${merchantPk(merchantId)}#CUSTOPEN`,
  data: (merchantId: string, customerId: string) => customerDataPk(merchantId, customerId),
  /**
   * GSI attributes of a customer item: email and name search (GSI1, GSI3, name only when there is
   * one), its own data partition (GSI2, under which erasure finds everything about it), and the
   * sparse open-payments index (GSI4, only while it has an open payment).
   */
  indexes: (
    merchantId: string,
    c: { id: string; email: string; name: string | null | undefined; created_at: string; open_payments: number; body: string },
  ) => ({
    GSI1PK: `${merchantPk(merchantId)}#CUSTEMAIL`,
    GSI1SK: `${c.email}#${c.body}`,
    GSI2PK: customerDataPk(merchantId, c.id),
    GSI2SK: 'CUST',
    ...(c.name ? { GSI3PK: `${merchantPk(merchantId)}#CUSTNAME`, GSI3SK: `${c.name.toLowerCase()}#${c.body}` } : {}),
    ...(c.open_payments > 0 ? { GSI4PK: `${merchantPk(merchantId)}#CUSTOPEN`, GSI4SK: `${c.created_at}#${c.body}` } : {}),
  }),
} as const;

/** Messages of the communication log and emails of the local outbox (access patterns above). */
export const messageKeys = {
  message: (merchantId: string, body: string): ItemKey => ({ PK: merchantPk(merchantId), SK: `MSG#${body}` }),
  outboxEmail: (merchantId: string, dedupeKey: string): ItemKey => ({ PK: merchantPk(merchantId), SK: `OUTBOX#${dedupeKey}` }),
  outboxPrefix: (merchantId: string) => ({ PK: merchantPk(merchantId), SKPrefix: 'OUTBOX#' }),
  /** GSI2 attributes that put an item among the customer's data, so erasure removes it. */
  customerData: (merchantId: string, customerId: string, sortKey: string) => ({ GSI2PK: customerDataPk(merchantId, customerId), GSI2SK: sortKey }),
  /** The global reference from a provider's message id to the merchant's message (not under M#: see above). */
  providerRef: (providerMessageId: string): ItemKey => ({ PK: `MSGREF#${providerMessageId}`, SK: 'MSGREF' }),
  /** That reference filed among the customer's data (its own key is global, so it is tagged by the provider's id). */
  providerRefTag: (merchantId: string, customerId: string, providerMessageId: string) => ({
    GSI2PK: customerDataPk(merchantId, customerId),
    GSI2SK: `MSGREF#${providerMessageId}`,
  }),
} as const;

/**
 * The erasure tag of an item about a customer (GSI2, the customer's data partition): a record is
 * filed by its own sort key, a reference to one by `REF#` and its sort key, so that the two are told apart.
 */
export const customerTags = {
  record: (merchantId: string, customerId: string, key: ItemKey) => ({ GSI2PK: customerDataPk(merchantId, customerId), GSI2SK: key.SK }),
  reference: (merchantId: string, customerId: string, key: ItemKey) => ({ GSI2PK: customerDataPk(merchantId, customerId), GSI2SK: `REF#${key.SK}` }),
} as const;

/** The merchant's email suppression list: one item per (lowercased) address. */
export const suppressionKeys = {
  entry: (merchantId: string, email: string): ItemKey => ({ PK: merchantPk(merchantId), SK: `SUPP#${email}` }),
} as const;

/** Raw provider webhook deliveries (access patterns above). */
export const webhookLogKeys = {
  delivery: (merchantId: string, body: string): ItemKey => ({ PK: merchantPk(merchantId), SK: `WHK#${body}` }),
  /** GSI2 attributes that file a delivery among the customer's data, so erasure removes it. */
  customerTag: (merchantId: string, customerId: string, body: string) => ({ GSI2PK: customerDataPk(merchantId, customerId), GSI2SK: `WHK#${body}` }),
  /** The link from a delivery to a further customer it concerns (`WHKLINK#` does not begin with `WHK#`). */
  customerLink: (merchantId: string, body: string, customerId: string): ItemKey => ({ PK: merchantPk(merchantId), SK: `WHKLINK#${body}#${customerId}` }),
  /** GSI2 attributes that file such a link among that customer's data, so erasure finds it (and deletes the delivery too). */
  customerLinkTag: (merchantId: string, customerId: string, body: string) => ({ GSI2PK: customerDataPk(merchantId, customerId), GSI2SK: `WHKLINK#${body}` }),
} as const;

function customerDataPk(merchantId: string, customerId: string): string {
  return `${merchantPk(merchantId)}#C#${customerId}`;
}

/**
 * Ingested payment events (POST /ingest/payment-event, provider webhooks), one item per dedupe
 * key (the sender's event id, or event type + provider payment id), hashed so any sender id fits
 * a sort key. Tagged with the customer's GSI2 partition once the customer is known, so erasure
 * removes it; expires through the TTL attribute.
 */
export const ingestKeys = {
  event: (merchantId: string, dedupeKeyHash: string): ItemKey => ({ PK: merchantPk(merchantId), SK: `INGEST#${dedupeKeyHash}` }),
  customerTag: (merchantId: string, customerId: string, dedupeKeyHash: string) => ({
    GSI2PK: customerDataPk(merchantId, customerId),
    GSI2SK: `INGEST#${dedupeKeyHash}`,
  }),
} as const;

/** The merchant's settings, one item each (access patterns above). */
export const settingsKeys = {
  quietHours: (merchantId: string): ItemKey => ({ PK: merchantPk(merchantId), SK: 'SETTINGS#QUIET_HOURS' }),
  recoveryGoal: (merchantId: string): ItemKey => ({ PK: merchantPk(merchantId), SK: 'SETTINGS#RECOVERY_GOAL' }),
} as const;

/**
 * Monthly recovery counters: payments that failed in a month (`YYYY-MM`, UTC) and how many of them
 * were recovered; written by the table-stream consumer (projections/recovery-period-counters.ts).
 */
export const recoveryCounterKeys = {
  month: (merchantId: string, month: string): ItemKey => ({ PK: merchantPk(merchantId), SK: `COUNT#MONTH#${month}` }),
} as const;

/** The families of rollup items (access patterns above): what a rollup item counts. */
export const ROLLUP_FAMILIES = ['PAY', 'CAMP', 'MSG'] as const;
export type RollupFamily = (typeof ROLLUP_FAMILIES)[number];
/** H: one item per UTC hour (bucket `YYYY-MM-DDTHH`); D: one per UTC day (bucket `YYYY-MM-DD`). */
export type RollupGranularity = 'H' | 'D';

/** A dimension value as a sort-key segment: `#` (the separator) and `%` escaped, empty as `-`. */
const dimSegment = (value: string): string => (value === '' ? '-' : value.replaceAll('%', '%25').replaceAll('#', '%23'));

/** Rollup items and the stream consumer's own items (access patterns above). */
export const rollupKeys = {
  partition: (merchantId: string, family: RollupFamily, granularity: RollupGranularity): string => `${merchantPk(merchantId)}#RU#${family}#${granularity}`,
  item: (merchantId: string, family: RollupFamily, granularity: RollupGranularity, bucket: string, dims: readonly string[]): ItemKey => ({
    PK: rollupKeys.partition(merchantId, family, granularity),
    SK: [bucket, ...dims.map(dimSegment)].join('#'),
  }),
  /** The sort-key range of every item from bucket `first` to bucket `last`, both included. */
  range: (first: string, last: string): { readonly from: string; readonly to: string } => ({ from: `${first}#`, to: `${last}#~` }),
  openState: (merchantId: string): ItemKey => ({ PK: merchantPk(merchantId), SK: 'COUNT#OPEN' }),
  applied: (merchantId: string, eventId: string): ItemKey => ({ PK: merchantPk(merchantId), SK: `APPLIED#${eventId}` }),
} as const;

/** Conditions on an item's own key: it exists, or it does not yet. */
export const conditions = {
  exists: 'attribute_exists(PK)',
  absent: 'attribute_not_exists(PK)',
} as const;

/** Key conditions of the Query patterns above, ready to spread into a QueryCommand input. */
export const queries = {
  /** Items of one partition whose sort key starts with a prefix (`apiKeyPrefix`, `providerSecretPrefix`). */
  partitionPrefix: ({ PK, SKPrefix }: { PK: string; SKPrefix: string }) => ({
    KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :sk)',
    ExpressionAttributeNames: { '#pk': 'PK', '#sk': 'SK' },
    ExpressionAttributeValues: { ':pk': PK, ':sk': SKPrefix },
  }),
  /** Items of one partition whose sort key lies between `from` and `to`, both included (a time range, a prefix from a body on: `PREFIX#<body>` to `PREFIX#~`). */
  sortKeyBetween: (PK: string, from: string, to: string) => ({
    KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :from AND :to',
    ExpressionAttributeNames: { '#pk': 'PK', '#sk': 'SK' },
    ExpressionAttributeValues: { ':pk': PK, ':from': from, ':to': to },
  }),
  /** Every merchant, oldest first: one GSI1 partition, so for the operator and offline use only. */
  merchantListing: () => ({
    IndexName: 'GSI1',
    KeyConditionExpression: '#pk = :pk',
    ExpressionAttributeNames: { '#pk': 'GSI1PK' },
    ExpressionAttributeValues: { ':pk': 'MERCHANTS' },
  }),
} as const;

/**
 * Erasure (functions/services/erase-customer.ts, erasure-tombstones.ts) and what it must find:
 * | an erased customer's tombstone: SHA-256 of merchant id, kind (`email`, `provider_customer_id`) and value; never erased, no TTL | PK = M#<m>, SK = ERASED#<sha256> | table |
 * | a stored Idempotency-Key response's link to each further customer it names (the record itself carries the first one's GSI2 tag) | PK = M#<m>, SK = IDEMLINK#<key hash>#<customer> | table |
 * | a customer's Idempotency-Key records and links (erasure) | GSI2PK = M#<m>#C#<customer>, GSI2SK begins_with IDEM# / IDEMLINK# | GSI2 |
 * Tombstones hold hashes only, so that later events for an erased customer are refused without
 * keeping anything that names them.
 */
export const erasureKeys = {
  tombstone: (merchantId: string, hash: string): ItemKey => ({ PK: merchantPk(merchantId), SK: `ERASED#${hash}` }),
  /** GSI2 attributes that file an Idempotency-Key record among the customer's data. */
  idempotencyTag: (merchantId: string, customerId: string, keyHash: string) => ({ GSI2PK: customerDataPk(merchantId, customerId), GSI2SK: `IDEM#${keyHash}` }),
  /** The link from a stored response to a further customer it names (`IDEMLINK#` does not begin with `IDEM#`). */
  idempotencyLink: (merchantId: string, keyHash: string, customerId: string): ItemKey => ({
    PK: merchantPk(merchantId),
    SK: `IDEMLINK#${keyHash}#${customerId}`,
  }),
  idempotencyLinkTag: (merchantId: string, customerId: string, keyHash: string) => ({
    GSI2PK: customerDataPk(merchantId, customerId),
    GSI2SK: `IDEMLINK#${keyHash}`,
  }),
} as const;

/** Entity names of the items above (beside ENTITY, so that this block only appends). */
export const ERASURE_ENTITY = {
  tombstone: 'erasure_tombstone',
  idempotencyLink: 'idempotency_link',
} as const;

/** Shards of the scheduled-message index: messages released at the same instant (a quiet period's end) spread over this many partitions. */
export const MESSAGE_DUE_SHARDS = 4;

/**
 * Dunning messages held for later (quiet hours) and the manual-dunning cooldown:
 * | scheduled messages due now, every merchant (every-minute job `dispatch-messages`) | GSI4PK = MSGDUE#<shard 0-3>, GSI4SK <= <now>#~ (sparse: only `scheduled` messages) | GSI4 |
 * | the manual-dunning cooldown of a customer (POST /recoveries/{id}/dunning) | PK = M#<m>, SK = DUNCOOL#<customer> (TTL at its end; tagged GSI2 for erasure) | table |
 * The due index shares GSI4 with the due retries (`DUE#`) and open customers (`M#…#CUSTOPEN`):
 * the partition prefixes differ, so no query of one sees the others.
 */
export const messageDueKeys = {
  shardPk: (shard: number): string => `MSGDUE#${shard}`,
  entry: (merchantId: string, body: string, dueAt: string) => {
    let hash = 0;
    for (let i = 0; i < body.length; i += 1) hash = (hash * 31 + body.charCodeAt(i)) >>> 0;
    return { GSI4PK: `MSGDUE#${hash % MESSAGE_DUE_SHARDS}`, GSI4SK: `${dueAt}#${merchantId}#${body}` };
  },
  /** The merchant and message body of a due entry's sort key. */
  parse: (sortKey: string): { dueAt: string; merchantId: string; body: string } | undefined => {
    const [dueAt, merchantId, body] = sortKey.split('#');
    return dueAt && merchantId && body ? { dueAt, merchantId, body } : undefined;
  },
  dueUpTo: (at: string): string => `${at}#~`,
  cooldown: (merchantId: string, customerId: string): ItemKey => ({ PK: merchantPk(merchantId), SK: `DUNCOOL#${customerId}` }),
  cooldownTag: (merchantId: string, customerId: string) => ({ GSI2PK: customerDataPk(merchantId, customerId), GSI2SK: 'DUNCOOL' }),
} as const;

export const MESSAGE_ENTITY = {
  dunningCooldown: 'dunning_cooldown',
} as const;

/**
 * Dead letters (functions/data/dead-letter-repository.ts, functions/adapters/dead-letters/local.ts):
 * | a merchant's dead-lettered inbound events, newest first (integrations health; no payload) | PK = M#<m>, SK begins_with DEADLETTER#<body> (`dle_<body>`, time-ordered) | table |
 * | the local stack's dead-letter queue of one queue (operator CLI `dlq list`/`dlq redrive`; local only) | PK = LOCALDLQ#<queue>, SK begins_with MSG#<dead-lettered at>#<message id> | table |
 * The local queues are in-process, so their DLQ is kept in the table where the CLI (another
 * process) reads it; on AWS the DLQs are SQS queues and nothing is written under LOCALDLQ#.
 */
export const deadLetterKeys = {
  inboundEvent: (merchantId: string, body: string): ItemKey => ({ PK: merchantPk(merchantId), SK: `DEADLETTER#${body}` }),
  inboundEventPrefix: (merchantId: string) => ({ PK: merchantPk(merchantId), SKPrefix: 'DEADLETTER#' }),
  localMessage: (queue: string, deadLetteredAt: string, messageId: string): ItemKey => ({ PK: `LOCALDLQ#${queue}`, SK: `MSG#${deadLetteredAt}#${messageId}` }),
  localQueuePrefix: (queue: string) => ({ PK: `LOCALDLQ#${queue}`, SKPrefix: 'MSG#' }),
} as const;

/**
 * Customer search terms (GET /customers?search=, any word of the name or email from its start;
 * core/customers.ts searchTermsOf): one item per term and customer, written with the customer,
 * tagged with the customer's GSI2 partition so erasure removes them.
 * | ?search= word prefix                      | PK = M#<m>, SK begins_with CUSTWORD#<folded prefix> → customer_id | table |
 * `CUSTWORD#` sorts after every `CUST#` key (`W` > `#`), so the customer list's key range never reads one.
 */
export const customerSearchKeys = {
  entity: 'customer_search_term',
  term: (merchantId: string, term: string, body: string): ItemKey => ({ PK: merchantPk(merchantId), SK: `CUSTWORD#${term}#${body}` }),
  termPrefix: (merchantId: string, prefix: string) => ({ PK: merchantPk(merchantId), SKPrefix: `CUSTWORD#${prefix}` }),
  customerTag: (merchantId: string, customerId: string, term: string) => ({ GSI2PK: customerDataPk(merchantId, customerId), GSI2SK: `CUSTWORD#${term}` }),
} as const;

/** The `entity` of a provider event's intake marker (webhookEventKeys). */
export const WEBHOOK_EVENT_ENTITY = 'webhook_event';

/**
 * One marker per provider event (the delivery's event ids, hashed): the intake's conditional put
 * on it stores one raw payload per event, however often the provider replays it. Ids and hashes
 * only, no personal data; it expires with the delivery it names. `WHKEVT#` does not begin with `WHK#`.
 */
export const webhookEventKeys = {
  event: (merchantId: string, psp: string, identity: string): ItemKey => ({ PK: merchantPk(merchantId), SK: `WHKEVT#${psp}#${identity}` }),
} as const;

/**
 * Campaigns (functions/data/campaign-repository.ts):
 * | GET /campaigns/{id}                                   | PK = M#<m>, SK = CAMP#<body> (`camp_<body>`, time-ordered) | table |
 * | GET /campaigns, newest first                          | PK = M#<m>, SK begins_with CAMP#, descending         | table |
 * | GET /campaigns?status=…, newest first                  | GSI1PK = M#<m>#CAMPS#<status>, GSI1SK = <body>, descending | GSI1 |
 * | ?trigger=… with either of the above                   | the query above + filter on trigger (documented: a merchant has few campaigns) | |
 * | the merchant's active campaigns, for enrollment (1 GetItem) | PK = M#<m>, SK = CAMPACTIVE (compact: id, trigger, filters, activated_at, steps_count) | table |
 * `CAMPACTIVE` does not begin with `CAMP#`, so the list's prefix never reads it. The active index is
 * rewritten, under a version condition, in the same transaction as every status change of a
 * campaign that enters or leaves `active`. Campaigns are not about a customer: no GSI2 tag.
 */
export const campaignKeys = {
  campaign: (merchantId: string, body: string): ItemKey => ({ PK: merchantPk(merchantId), SK: `CAMP#${body}` }),
  campaignPrefix: (merchantId: string) => ({ PK: merchantPk(merchantId), SKPrefix: 'CAMP#' }),
  statusIndex: (merchantId: string, status: string, body: string) => ({ GSI1PK: `${merchantPk(merchantId)}#CAMPS#${status}`, GSI1SK: body }),
  statusIndexPk: (merchantId: string, status: string): string => `${merchantPk(merchantId)}#CAMPS#${status}`,
  activeIndex: (merchantId: string): ItemKey => ({ PK: merchantPk(merchantId), SK: 'CAMPACTIVE' }),
} as const;

export const CAMPAIGN_ENTITY = {
  campaign: 'campaign',
  activeIndex: 'campaign_active_index',
} as const;

/**
 * Email A/B tests (functions/data/ab-test-repository.ts), one per campaign:
 * | POST /email/ab-test, GET /email/ab-test/{campaign_id}, evaluate; the engine's counters (ADD) | PK = M#<m>, SK = ABTEST#<campaign body> (the test's own id `abt_<body>` is an attribute) | table |
 * Keyed by the campaign, not the test, because every access names the campaign (the spec's paths
 * take campaign_id) and one campaign has at most one test: a completed test is replaced by the next
 * one created. Not about a customer: no GSI2 tag.
 */
export const abTestKeys = {
  test: (merchantId: string, campaignBody: string): ItemKey => ({ PK: merchantPk(merchantId), SK: `ABTEST#${campaignBody}` }),
} as const;

export const AB_TEST_ENTITY = {
  abTest: 'email_ab_test',
} as const;

/**
 * Message templates, and the email suppression list's listing and statistics
 * (functions/data/template-repository.ts, functions/data/suppression-repository.ts):
 * | a merchant's template by id (GET/PUT/DELETE /templates/{id}; built-ins are code, not items) | PK = M#<m>, SK = TMPL#<body> (`tmpl_<body>`, time-ordered) | table |
 * | a merchant's templates, newest first (GET /templates)    | PK = M#<m>, SK begins_with TMPL#, descending      | table |
 * | how many templates a merchant has (pagination.total)     | PK = M#<m>, SK = COUNT#TMPL                       | table |
 * | suppressions by address, alphabetical (GET /email/suppressions; ?search= narrows the key range) | PK = M#<m>, SK begins_with SUPP#<lowercased email prefix> | table |
 * | suppression counters: total, active, lifted, active by reason (GET /email/suppressions/stats) | PK = M#<m>, SK = COUNT#SUPP | table |
 * | suppressions made on one UTC day (stats' last 30 days: BatchGet of 30 keys; TTL after 40 days) | PK = M#<m>, SK = COUNT#SUPPDAY#<YYYY-MM-DD> | table |
 * The counters are updated in the transaction that suppresses or lifts an address, so no read of
 * the statistics grows with the list. Templates hold nothing about a customer (no GSI2 tag);
 * suppressions carry theirs (suppressionKeys above, entities/suppression.ts).
 */
export const templateKeys = {
  template: (merchantId: string, body: string): ItemKey => ({ PK: merchantPk(merchantId), SK: `TMPL#${body}` }),
  templatePrefix: (merchantId: string) => ({ PK: merchantPk(merchantId), SKPrefix: 'TMPL#' }),
  counters: (merchantId: string): ItemKey => ({ PK: merchantPk(merchantId), SK: 'COUNT#TMPL' }),
} as const;

export const suppressionListKeys = {
  /** The merchant's suppressions whose (lowercased) address starts with `emailPrefix` ('' for all). */
  prefix: (merchantId: string, emailPrefix: string) => ({ PK: merchantPk(merchantId), SKPrefix: `SUPP#${emailPrefix}` }),
  counters: (merchantId: string): ItemKey => ({ PK: merchantPk(merchantId), SK: 'COUNT#SUPP' }),
  day: (merchantId: string, day: string): ItemKey => ({ PK: merchantPk(merchantId), SK: `COUNT#SUPPDAY#${day}` }),
} as const;

/** Entity names of the items above (beside ENTITY, so that this block only appends). */
export const TEMPLATE_ENTITY = {
  template: 'template',
} as const;

/**
 * Sending channels (functions/adapters/email, functions/adapters/messaging, unsubscribes and the
 * merchant's automatic sending pause; functions/data/channel-repository.ts):
 * | what an email/SMS/WhatsApp adapter sent for a message (resend dedupe: ids only) | PK = M#<m>, SK = SENT#<message body> | table |
 * | SMS/WhatsApp of the local messaging sender, oldest first (operator CLI `messages list`) | PK = M#<m>, SK begins_with LOCALMSG# | table |
 * | a customer's unsubscribe (consumer: nothing is sent to them on any channel) | PK = M#<m>, SK = UNSUB#<customer> | table |
 * | a merchant's sending counters of one UTC day (sent, bounced, complained) | PK = M#<m>, SK = SENDSTATS#<YYYY-MM-DD>; BatchGet of the last 30 days | table |
 * | a merchant's sending pause (consumer, campaign detail) | PK = M#<m>, SK = SENDPAUSE | table |
 * | a customer's sent markers, local messages and unsubscribe (erasure) | GSI2PK = M#<m>#C#<customer>, GSI2SK = the item's SK | GSI2 |
 */
export const channelKeys = {
  sentMarker: (merchantId: string, body: string): ItemKey => ({ PK: merchantPk(merchantId), SK: `SENT#${body}` }),
  localMessage: (merchantId: string, body: string): ItemKey => ({ PK: merchantPk(merchantId), SK: `LOCALMSG#${body}` }),
  localMessagePrefix: (merchantId: string) => ({ PK: merchantPk(merchantId), SKPrefix: 'LOCALMSG#' }),
  unsubscribe: (merchantId: string, customerId: string): ItemKey => ({ PK: merchantPk(merchantId), SK: `UNSUB#${customerId}` }),
  sendingStatsDay: (merchantId: string, day: string): ItemKey => ({ PK: merchantPk(merchantId), SK: `SENDSTATS#${day}` }),
  sendingPause: (merchantId: string): ItemKey => ({ PK: merchantPk(merchantId), SK: 'SENDPAUSE' }),
} as const;

/** Entity names of the items above (beside ENTITY, so that this block only appends). */
export const CHANNEL_ENTITY = {
  sentMarker: 'sent_marker',
  localMessage: 'local_message',
  unsubscribe: 'unsubscribe',
  sendingStats: 'sending_stats',
  sendingPause: 'sending_pause',
} as const;

/** Shards of the campaign-step due index: steps due at the same instant (a window's start hour) spread over this many partitions. */
export const CAMPAIGN_DUE_SHARDS = 8;

/**
 * Campaign enrollments (functions/data/enrollment-repository.ts): one item per payment, so a
 * payment is in at most one campaign (the enrollment's conditional put on its key).
 * | a payment's enrollment (recovery detail, the job's claim) | PK = M#<m>, SK = ENROLL#<payment body> | table |
 * | enrollments of a page of recoveries                  | BatchGet of the page's ENROLL#<payment body> keys   | table |
 * | steps due now, every merchant (hourly job `advance-campaign-steps`) | GSI4PK = CAMPDUE#<shard 0-7>, GSI4SK <= <now>#~ (sparse: only `active` enrollments) | GSI4 |
 * | a campaign's enrollments, newest first (GET /recoveries?campaign_id=) | GSI1PK = M#<m>#CAMPENR#<campaign body>, GSI1SK = <payment body>, descending | GSI1 |
 * | a customer's enrollments (card update; erasure) | GSI2PK = M#<m>#C#<customer>, GSI2SK begins_with ENROLL# | GSI2 |
 * The due index shares GSI4 with due retries (`DUE#`), scheduled messages (`MSGDUE#`) and open
 * customers; GSI1 with the payment and campaign status indexes: the partition prefixes differ.
 * Whether a campaign still has active enrollments is its `stats.active` (kept in the same
 * transactions as the enrollments' status), read consistently: no index needed.
 */
export const enrollmentKeys = {
  enrollment: (merchantId: string, paymentBody: string): ItemKey => ({ PK: merchantPk(merchantId), SK: `ENROLL#${paymentBody}` }),
  customerPrefix: 'ENROLL#',
  shardPk: (shard: number): string => `CAMPDUE#${shard}`,
  due: (merchantId: string, paymentBody: string, dueAt: string) => {
    let hash = 0;
    for (let i = 0; i < paymentBody.length; i += 1) hash = (hash * 31 + paymentBody.charCodeAt(i)) >>> 0;
    return { GSI4PK: `CAMPDUE#${hash % CAMPAIGN_DUE_SHARDS}`, GSI4SK: `${dueAt}#${merchantId}#${paymentBody}` };
  },
  /** The merchant and payment body of a due entry's sort key. */
  parse: (sortKey: string): { dueAt: string; merchantId: string; body: string } | undefined => {
    const [dueAt, merchantId, body] = sortKey.split('#');
    return dueAt && merchantId && body ? { dueAt, merchantId, body } : undefined;
  },
  dueUpTo: (at: string): string => `${at}#~`,
  byCampaign: (merchantId: string, campaignBody: string, paymentBody: string) => ({
    GSI1PK: `${merchantPk(merchantId)}#CAMPENR#${campaignBody}`,
    GSI1SK: paymentBody,
  }),
  byCampaignPk: (merchantId: string, campaignBody: string): string => `${merchantPk(merchantId)}#CAMPENR#${campaignBody}`,
} as const;

export const ENROLLMENT_ENTITY = {
  enrollment: 'campaign_enrollment',
} as const;

/**
 * Integrations (issue 13; functions/data/storefront-repository.ts, integration-health-repository.ts):
 * | a merchant's storefront association (1 GetItem)                    | PK = M#<m>, SK = STOREFRONT | table |
 * | who owns a shop domain (one merchant; the register transaction's condition) | PK = SHOPDOMAIN#<domain>, SK = SHOPDOMAIN | table |
 * | a merchant's provider signature failures of one hour and provider (counter, `ADD`) | PK = M#<m>, SK = SIGFAIL#<yyyy-mm-ddThh>#<psp> | table |
 * | the last 24 h of signature failures, every provider (1 Query, ≤ 25 × 13 small items) | PK = M#<m>, SK BETWEEN SIGFAIL#<from hour> AND SIGFAIL#<to hour>#~ | table |
 * | the last 24 h of stored provider deliveries (integration health) | PK = M#<m>, SK BETWEEN WHK#<floor id of now-24h> AND WHK#~ (webhookLogKeys) | table |
 * | the last 30 days of dead-lettered inbound events (integration health) | PK = M#<m>, SK BETWEEN DEADLETTER#<floor id> AND DEADLETTER#~ (deadLetterKeys) | table |
 * `SIGFAIL#` items hold a count, the last failure's time and an expiry (48 h): no payload, no personal data.
 */
export const integrationKeys = {
  storefront: (merchantId: string): ItemKey => ({ PK: merchantPk(merchantId), SK: 'STOREFRONT' }),
  shopDomain: (domain: string): ItemKey => ({ PK: `SHOPDOMAIN#${domain}`, SK: 'SHOPDOMAIN' }),
  signatureFailures: (merchantId: string, hour: string, psp: string): ItemKey => ({ PK: merchantPk(merchantId), SK: `SIGFAIL#${hour}#${psp}` }),
  /** Key condition bounds of the hourly signature-failure counters from `fromHour` to `toHour` (inclusive). */
  signatureFailureRange: (merchantId: string, fromHour: string, toHour: string) =>
    queries.sortKeyBetween(merchantPk(merchantId), `SIGFAIL#${fromHour}`, `SIGFAIL#${toHour}#~`),
  /** Key condition of the stored deliveries (`WHK#<body>`) whose time-ordered body is at least `fromBody`. */
  webhookLogsFrom: (merchantId: string, fromBody: string) => queries.sortKeyBetween(merchantPk(merchantId), `WHK#${fromBody}`, 'WHK#~'),
  /** Key condition of the dead-lettered events (`DEADLETTER#<body>`) whose time-ordered body is at least `fromBody`. */
  deadLettersFrom: (merchantId: string, fromBody: string) => queries.sortKeyBetween(merchantPk(merchantId), `DEADLETTER#${fromBody}`, 'DEADLETTER#~'),
} as const;

export const INTEGRATION_ENTITY = {
  storefront: 'storefront',
  shopDomain: 'shop_domain',
  signatureFailures: 'signature_failures',
} as const;

/**
 * CRM integrations (functions/data/crm-repository.ts; issue 13). All under the merchant:
 * | a merchant's connection to a CRM: tokens sealed by the secret box, connected_at (callback writes, sync reads) | PK = M#<m>, SK = CRMCONN#<crm> | table |
 * | a CRM's sync status, read by integrations health: last_synced_at (last success), last_sync_at, last_outcome, last_error (null after a success), counts | PK = M#<m>, SK = CRMSTATUS#<crm> | table |
 * | a CRM's sync log, newest first (counts and outcome only, no personal data) | PK = M#<m>, SK = CRMSYNC#<crm>#<started_at>#<sync id>; Query begins_with CRMSYNC#<crm># descending | table |
 * | a spent OAuth state nonce (single use: conditional put; TTL `expires_at`) | PK = M#<m>, SK = CRMSTATE#<nonce> | table |
 */
export const crmKeys = {
  connection: (merchantId: string, crm: string): ItemKey => ({ PK: merchantPk(merchantId), SK: `CRMCONN#${crm}` }),
  status: (merchantId: string, crm: string): ItemKey => ({ PK: merchantPk(merchantId), SK: `CRMSTATUS#${crm}` }),
  syncLog: (merchantId: string, crm: string, startedAt: string, syncId: string): ItemKey => ({
    PK: merchantPk(merchantId),
    SK: `CRMSYNC#${crm}#${startedAt}#${syncId}`,
  }),
  syncLogPrefix: (merchantId: string, crm: string) => ({ PK: merchantPk(merchantId), SKPrefix: `CRMSYNC#${crm}#` }),
  stateNonce: (merchantId: string, nonce: string): ItemKey => ({ PK: merchantPk(merchantId), SK: `CRMSTATE#${nonce}` }),
} as const;

export const CRM_ENTITY = {
  connection: 'crm_connection',
  status: 'crm_sync_status',
  syncLog: 'crm_sync_log',
  stateNonce: 'crm_state_nonce',
} as const;

/**
 * Automation REST hooks (functions/data/automation-repository.ts) and the outbound events' per-type
 * index (functions/data/outbound-event-repository.ts):
 * | the last events of one type, newest first (GET /automation/poll/{eventType}) | GSI1PK = M#<m>#EVTTYPE#<types[0]>, GSI1SK = <event body>; GSI3PK = M#<m>#EVTTYPE#<types[1]>, GSI3SK = <event body>; both read descending, Limit 50, merged | GSI1 + GSI3 |
 * | a subscription by event type and target (subscribe is idempotent; unsubscribe by target) | PK = M#<m>, SK = AUTOHOOK#<event type>#<sha256 of target_url> | table |
 * | a merchant's subscriptions to one event type (the dispatcher: one Query) | PK = M#<m>, SK begins_with AUTOHOOK#<event type># | table |
 * | a subscription by id (unsubscribe by id) | PK = M#<m>, SK = AUTOHOOKID#<body> → event type + target hash | table |
 * | the merchant's subscription count (at most MAX_AUTOMATION_SUBSCRIPTIONS) | PK = M#<m>, SK = AUTOHOOKCOUNT | table |
 * An outbound event carries one or two names of the same fact (A's and B's), so the event item is
 * in the type index once per name: its first name in GSI1, its second in GSI3 (both free on the
 * event item; GSI2 is its erasure tag). A poll reads both partitions of the asked name (at most 50
 * items each) and keeps the newest 50: two Queries, at most 100 items read, whatever the merchant's
 * volume. Write cost: each event item is also written to those two indexes (one more write unit
 * per index per KB of event). Events written before this index existed are not in it (they expire
 * within 30 days). Subscriptions are stored under the catalogue's canonical name of their event
 * type, so a dispatcher finds every subscription to an event with one Query.
 * `AUTOHOOKID#` and `AUTOHOOKCOUNT` do not begin with `AUTOHOOK#`.
 */
export const automationKeys = {
  eventByType: (merchantId: string, type: string, body: string, index: 'GSI1' | 'GSI3') =>
    index === 'GSI1'
      ? { GSI1PK: `${merchantPk(merchantId)}#EVTTYPE#${type}`, GSI1SK: body }
      : { GSI3PK: `${merchantPk(merchantId)}#EVTTYPE#${type}`, GSI3SK: body },
  /** The newest events of one name in one of the two type indexes (descending by event body, which is time-ordered). */
  eventsOfType: (merchantId: string, type: string, index: 'GSI1' | 'GSI3') => ({
    IndexName: index,
    KeyConditionExpression: '#pk = :pk',
    ExpressionAttributeNames: { '#pk': `${index}PK` },
    ExpressionAttributeValues: { ':pk': `${merchantPk(merchantId)}#EVTTYPE#${type}` },
    ScanIndexForward: false,
  }),
  subscription: (merchantId: string, eventType: string, targetHash: string): ItemKey => ({
    PK: merchantPk(merchantId),
    SK: `AUTOHOOK#${eventType}#${targetHash}`,
  }),
  subscriptionsOfType: (merchantId: string, eventType: string) => ({ PK: merchantPk(merchantId), SKPrefix: `AUTOHOOK#${eventType}#` }),
  subscriptionId: (merchantId: string, body: string): ItemKey => ({ PK: merchantPk(merchantId), SK: `AUTOHOOKID#${body}` }),
  subscriptionCount: (merchantId: string): ItemKey => ({ PK: merchantPk(merchantId), SK: 'AUTOHOOKCOUNT' }),
} as const;

/** Entity names of the items above (beside ENTITY, so that this block only appends). */
export const AUTOMATION_ENTITY = {
  subscription: 'automation_subscription',
  subscriptionId: 'automation_subscription_id',
} as const;

/**
 * Outbound webhook endpoints and their delivery log (functions/data/webhook-endpoint-repository.ts):
 * | a merchant's endpoints, oldest first (list, dispatch) | PK = M#<m>, SK begins_with WHEP#         | table |
 * | one endpoint                                          | PK = M#<m>, SK = WHEP#<endpoint body>    | table |
 * | the merchant's endpoint count (at most 16)            | PK = M#<m>, SK = WHEPCOUNT               | table |
 * | the delivery log, newest first (GET /webhooks/events) | PK = M#<m>, SK begins_with WHDLV#, descending | table |
 * One merchant has at most 16 endpoints: reading them all is one small query, so dispatch needs no index.
 */
export const webhookKeys = {
  endpoint: (merchantId: string, endpointBody: string): ItemKey => ({ PK: merchantPk(merchantId), SK: `WHEP#${endpointBody}` }),
  endpointPrefix: (merchantId: string) => ({ PK: merchantPk(merchantId), SKPrefix: 'WHEP#' }),
  endpointCount: (merchantId: string): ItemKey => ({ PK: merchantPk(merchantId), SK: 'WHEPCOUNT' }),
  delivery: (merchantId: string, deliveryBody: string): ItemKey => ({ PK: merchantPk(merchantId), SK: `WHDLV#${deliveryBody}` }),
  deliveryPrefix: (merchantId: string) => ({ PK: merchantPk(merchantId), SKPrefix: 'WHDLV#' }),
} as const;

export const WEBHOOK_ENTITY = {
  endpoint: 'webhook_endpoint',
  delivery: 'webhook_delivery',
} as const;

/**
 * Cancel flows and cancel sessions (functions/data/cancel-flow-repository.ts, cancel-session-repository.ts):
 * | a merchant's flows, oldest first (GET /cancel-flows)        | PK = M#<m>, SK begins_with CFLOW#                 | table |
 * | one flow                                                     | PK = M#<m>, SK = CFLOW#<flow body>                | table |
 * | the merchant's active flow (at most one; activate swaps it)  | PK = M#<m>, SK = CFLOWACTIVE → flow id, version   | table |
 * | the merchant's flow count (at most 50)                       | PK = M#<m>, SK = CFLOWCOUNT                       | table |
 * | a flow's session statistics (written by the stream consumer) | PK = M#<m>, SK = COUNT#CFLOW#<flow body>          | table |
 * | a session by its token (the token's SHA-256)                 | PK = CSESS#<sha256 of token>, SK = CSESS          | table |
 * | a customer's sessions (save re-check, erasure)               | GSI2PK = M#<m>#C#<customer>, GSI2SK begins_with CSESS#<created_at> | GSI2 |
 * | sessions whose 30-day save window closes on a day (daily task; sparse) | GSI1PK = CSDUE#<YYYY-MM-DD>, GSI1SK = <merchant>#<session id> | GSI1 |
 * | a customer's redemptions of one offer (cap)                  | PK = M#<m>, SK = CFREDEEM#<customer>#<flow body>#<step id> | table |
 * | a customer's redemptions of a flow's offers (one Query)      | PK = M#<m>, SK begins_with CFREDEEM#<customer>#<flow body># | table |
 * A session item cannot start with the merchant: the token in the path is all a request names
 * (like the API key hash). It carries merchant_id and the customer's GSI2 tag. `CFLOWACTIVE` does
 * not begin with `CFLOW#`. The due index is written only on completed, not abandoned sessions and
 * removed once re-checked; one partition per day, read by the daily task alone.
 */
export const cancelFlowKeys = {
  flow: (merchantId: string, body: string): ItemKey => ({ PK: merchantPk(merchantId), SK: `CFLOW#${body}` }),
  flowPrefix: (merchantId: string) => ({ PK: merchantPk(merchantId), SKPrefix: 'CFLOW#' }),
  active: (merchantId: string): ItemKey => ({ PK: merchantPk(merchantId), SK: 'CFLOWACTIVE' }),
  count: (merchantId: string): ItemKey => ({ PK: merchantPk(merchantId), SK: 'CFLOWCOUNT' }),
  stats: (merchantId: string, flowBody: string): ItemKey => ({ PK: merchantPk(merchantId), SK: `COUNT#CFLOW#${flowBody}` }),
  /** The flow body a statistics item's sort key names. */
  statsBodyOf: (sortKey: string): string => sortKey.slice('COUNT#CFLOW#'.length),
  session: (tokenHash: string): ItemKey => ({ PK: `CSESS#${tokenHash}`, SK: 'CSESS' }),
  /** The token hash a session item's partition key holds. */
  tokenHashOf: (partitionKey: string): string => partitionKey.slice('CSESS#'.length),
  sessionTag: (merchantId: string, customerId: string, createdAt: string, sessionId: string) => ({
    GSI2PK: customerDataPk(merchantId, customerId),
    GSI2SK: `CSESS#${createdAt}#${sessionId}`,
  }),
  customerSessions: (merchantId: string, customerId: string) => ({
    IndexName: 'GSI2',
    KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :sk)',
    ExpressionAttributeNames: { '#pk': 'GSI2PK', '#sk': 'GSI2SK' },
    ExpressionAttributeValues: { ':pk': customerDataPk(merchantId, customerId), ':sk': 'CSESS#' },
  }),
  customerPayments: (merchantId: string, customerId: string) => ({
    IndexName: 'GSI2',
    KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :sk)',
    ExpressionAttributeNames: { '#pk': 'GSI2PK', '#sk': 'GSI2SK' },
    ExpressionAttributeValues: { ':pk': customerDataPk(merchantId, customerId), ':sk': 'PAY#' },
  }),
  dueIndex: (day: string, merchantId: string, sessionId: string) => ({ GSI1PK: `CSDUE#${day}`, GSI1SK: `${merchantId}#${sessionId}` }),
  dueOn: (day: string) => ({
    IndexName: 'GSI1',
    KeyConditionExpression: '#pk = :pk',
    ExpressionAttributeNames: { '#pk': 'GSI1PK' },
    ExpressionAttributeValues: { ':pk': `CSDUE#${day}` },
  }),
  redemption: (merchantId: string, customerId: string, flowBody: string, stepId: string): ItemKey => ({
    PK: merchantPk(merchantId),
    SK: `CFREDEEM#${customerId}#${flowBody}#${stepId}`,
  }),
  redemptionPrefix: (merchantId: string, customerId: string, flowBody: string) => ({
    PK: merchantPk(merchantId),
    SKPrefix: `CFREDEEM#${customerId}#${flowBody}#`,
  }),
  redemptionTag: (merchantId: string, customerId: string, flowBody: string, stepId: string) => ({
    GSI2PK: customerDataPk(merchantId, customerId),
    GSI2SK: `CFREDEEM#${flowBody}#${stepId}`,
  }),
} as const;

export const CANCEL_FLOW_ENTITY = {
  flow: 'cancel_flow',
  active: 'cancel_flow_active',
  session: 'cancel_session',
  redemption: 'cancel_offer_redemption',
  stats: 'cancel_flow_stats',
} as const;

/** Shards of the webhook retry due index: retries due at the same instant spread over this many partitions. */
export const WEBHOOK_DUE_SHARDS = 8;

/**
 * Outbound webhook delivery (issue 13; functions/services/deliver-webhook.ts, functions/jobs/dispatch-due-webhooks.ts):
 * | retries of webhook deliveries due now, every merchant (every-minute task `dispatch-due-webhooks`) | GSI4PK = WHDUE#<shard 0-7>, GSI4SK <= <now>#~ (sparse: only `pending` log rows of a retry waiting more than the queue's 15-minute delay) | GSI4 |
 * | one attempt's log row (at-least-once queue: a redelivered message rewrites it) | PK = M#<m>, SK = WHDLV#<body> (webhookKeys.delivery) | table |
 * The log row's body is derived from the attempt's scheduled time (10 characters, so the log still
 * lists newest first) and a hash of event × target × attempt (16 characters): the same attempt
 * always has the same row. The due entry lives on the pending row itself and is removed by a
 * conditional update (`GSI4SK = :entry`) before the retry is enqueued, so two runs enqueue it once.
 * The due index shares GSI4 with due retries (`DUE#`), campaign steps (`CAMPDUE#`), scheduled
 * messages (`MSGDUE#`) and open customers: the partition prefixes differ.
 */
export const webhookDueKeys = {
  shardPk: (shard: number): string => `WHDUE#${shard}`,
  entry: (merchantId: string, body: string, dueAt: string) => {
    let hash = 0;
    for (let i = 0; i < body.length; i += 1) hash = (hash * 31 + body.charCodeAt(i)) >>> 0;
    return { GSI4PK: `WHDUE#${hash % WEBHOOK_DUE_SHARDS}`, GSI4SK: `${dueAt}#${merchantId}#${body}` };
  },
  /** The merchant and log row body of a due entry's sort key. */
  parse: (sortKey: string): { dueAt: string; merchantId: string; body: string } | undefined => {
    const [dueAt, merchantId, body] = sortKey.split('#');
    return dueAt && merchantId && body ? { dueAt, merchantId, body } : undefined;
  },
  dueUpTo: (at: string): string => `${at}#~`,
} as const;

/**
 * The widget, branding and the update-payment page (issue 14; functions/data/hosted-settings-repository.ts,
 * functions/data/update-payment-token-repository.ts):
 * | the merchant's hosted-page settings: widget secret (sealed), branding, update-payment page | PK = M#<m>, SK = HOSTED | table |
 * | a widget signature accepted before (replays refused; TTL `expires_at`) | PK = M#<m>, SK = WIDGETSIG#<sha256 of signature> | table |
 * | an update-payment link, by the SHA-256 of its token (TTL `expires_at`) | PK = UPDPAY#<sha256 of token>, SK = UPDPAY | table |
 * | a customer's update-payment links (erasure)  | GSI2PK = M#<m>#C#<customer>, GSI2SK = UPDPAY#<sha256> | GSI2 |
 * The update-payment link is not under `M#`: the customer's browser presents only the token, so
 * the token (hashed) is what finds the link, and the item carries its merchant as an attribute,
 * like the API-key hash item.
 */
export const hostedKeys = {
  settings: (merchantId: string): ItemKey => ({ PK: merchantPk(merchantId), SK: 'HOSTED' }),
  widgetSignature: (merchantId: string, signatureHash: string): ItemKey => ({ PK: merchantPk(merchantId), SK: `WIDGETSIG#${signatureHash}` }),
  updatePaymentToken: (tokenHash: string): ItemKey => ({ PK: `UPDPAY#${tokenHash}`, SK: 'UPDPAY' }),
  updatePaymentTokenTag: (merchantId: string, customerId: string, tokenHash: string) => ({
    GSI2PK: customerDataPk(merchantId, customerId),
    GSI2SK: `UPDPAY#${tokenHash}`,
  }),
} as const;

/** Entity names of the items above (beside ENTITY, so that this block only appends). */
export const HOSTED_ENTITY = {
  widgetSignature: 'widget_signature',
  updatePaymentToken: 'update_payment_token',
} as const;

/**
 * Win-back offers (functions/data/win-back-repository.ts):
 * | one win-back offer                     | PK = M#<m>, SK = WINBACK#<body> (`wb_<body>`, time-ordered) | table |
 * | a customer's win-back offers (erasure) | GSI2PK = M#<m>#C#<customer>, GSI2SK = WINBACK#<body>       | GSI2  |
 */
export const winBackKeys = {
  offer: (merchantId: string, body: string): ItemKey => ({ PK: merchantPk(merchantId), SK: `WINBACK#${body}` }),
  customerTag: (merchantId: string, customerId: string, body: string) => ({ GSI2PK: customerDataPk(merchantId, customerId), GSI2SK: `WINBACK#${body}` }),
} as const;

/** Entity names of the items above (beside ENTITY, so that this block only appends). */
export const WIN_BACK_ENTITY = { offer: 'win_back' } as const;

/**
 * AI generation (issue 15). Answers of the cacheable use cases (decline_explanation,
 * retry_scoring), one item per merchant and prompt hash, removed by the TTL attribute an hour
 * after they were written (reads check `expires_at` too, since TTL deletion lags). Prompts are
 * redacted before they are hashed or sent, so the item holds no card data, email address or
 * customer name, and no customer tag:
 * | a cached AI answer                         | PK = M#<m>, SK = AICACHE#<sha256 of use case, prompts and settings> | table |
 */
export const aiGenerationKeys = {
  cachedAnswer: (merchantId: string, promptHash: string): ItemKey => ({ PK: merchantPk(merchantId), SK: `AICACHE#${promptHash}` }),
} as const;

export const AI_GENERATION_ENTITY = { cachedAnswer: 'ai_cached_answer' } as const;

/**
 * Recovery experiments, their assignments and rollups, the merchant's recovery strategy defaults,
 * and the decisions on suggestions (functions/data/experiment-repository.ts, suggestion-repository.ts):
 * | the merchant's experiments, oldest first (GET /experiments) | PK = M#<m>, SK begins_with XP#                  | table |
 * | one experiment                                        | PK = M#<m>, SK = XP#<body>                            | table |
 * | a customer's assignment in one experiment (once)      | PK = M#<m>, SK = XPASSIGN#<body>#<customer>            | table |
 * | a customer's assignments (erasure)                    | GSI2PK = M#<m>#C#<customer>, GSI2SK begins_with XPASSIGN# | GSI2 |
 * | an experiment's per-variant counters (stream consumer)| PK = M#<m>, SK begins_with COUNT#XP#<body>#             | table |
 * | the merchant's recovery strategy defaults (promote)   | PK = M#<m>, SK = SETTINGS#RECOVERY_STRATEGY            | table |
 * | a suggestion applied or dismissed (never re-proposed) | PK = M#<m>, SK = SUGGESTION#<suggestion id>            | table |
 * | every decided suggestion                              | PK = M#<m>, SK begins_with SUGGESTION#                 | table |
 * | the merchant's email A/B tests (listed with experiments) | PK = M#<m>, SK begins_with ABTEST#                  | table |
 * `XPASSIGN#` and `COUNT#XP#` do not begin with `XP#`, so the experiment listing never sees them.
 * Counters are never read by scanning assignments: results read one Query of the rollup items,
 * whose number is the number of variants.
 */
export const experimentKeys = {
  experiment: (merchantId: string, body: string): ItemKey => ({ PK: merchantPk(merchantId), SK: `XP#${body}` }),
  experimentPrefix: (merchantId: string) => ({ PK: merchantPk(merchantId), SKPrefix: 'XP#' }),
  assignment: (merchantId: string, body: string, customerId: string): ItemKey => ({ PK: merchantPk(merchantId), SK: `XPASSIGN#${body}#${customerId}` }),
  assignmentTag: (merchantId: string, customerId: string, body: string) => ({ GSI2PK: customerDataPk(merchantId, customerId), GSI2SK: `XPASSIGN#${body}` }),
  variantCounters: (merchantId: string, body: string, variant: string): ItemKey => ({ PK: merchantPk(merchantId), SK: `COUNT#XP#${body}#${variant}` }),
  variantCountersPrefix: (merchantId: string, body: string) => ({ PK: merchantPk(merchantId), SKPrefix: `COUNT#XP#${body}#` }),
  recoveryStrategy: (merchantId: string): ItemKey => ({ PK: merchantPk(merchantId), SK: 'SETTINGS#RECOVERY_STRATEGY' }),
  suggestion: (merchantId: string, suggestionId: string): ItemKey => ({ PK: merchantPk(merchantId), SK: `SUGGESTION#${suggestionId}` }),
  suggestionPrefix: (merchantId: string) => ({ PK: merchantPk(merchantId), SKPrefix: 'SUGGESTION#' }),
  abTestPrefix: (merchantId: string) => ({ PK: merchantPk(merchantId), SKPrefix: 'ABTEST#' }),
} as const;

export const EXPERIMENT_ENTITY = {
  experiment: 'experiment',
  assignment: 'experiment_assignment',
  variantCounters: 'experiment_variant_counters',
  recoveryStrategy: 'recovery_strategy',
  suggestionDecision: 'suggestion_decision',
} as const;

/**
 * Vectors of past recoveries in the local vector store (functions/adapters/vectors/dynamo-store.ts;
 * on AWS Amazon S3 Vectors holds them and none of these items exist):
 * | a merchant's vectors, all (the in-memory matrix's first load; one Query pages them in) | PK = M#<m>, SK begins_with VEC# | table |
 * | a merchant's vectors written since an instant (the matrix's incremental refresh) | GSI3PK = M#<m>#VECLOG, GSI3SK >= <written_at> | GSI3 |
 * | the merchant's vector version: writes and removals counted (the matrix's freshness check) | PK = M#<m>, SK = VECVERSION | table |
 * | a customer's vectors (erasure) | GSI2PK = M#<m>#C#<customer>, GSI2SK begins_with VEC# | GSI2 |
 * `VECVERSION` does not begin with `VEC#`, so the vectors' prefix never lists it.
 */
export const vectorKeys = {
  vector: (merchantId: string, id: string): ItemKey => ({ PK: merchantPk(merchantId), SK: `VEC#${id}` }),
  vectors: (merchantId: string) => queries.partitionPrefix({ PK: merchantPk(merchantId), SKPrefix: 'VEC#' }),
  version: (merchantId: string): ItemKey => ({ PK: merchantPk(merchantId), SK: 'VECVERSION' }),
  log: (merchantId: string, writtenAt: string, id: string) => ({ GSI3PK: `${merchantPk(merchantId)}#VECLOG`, GSI3SK: `${writtenAt}#${id}` }),
  writtenSince: (merchantId: string, since: string) => ({
    IndexName: 'GSI3',
    KeyConditionExpression: '#pk = :pk AND #sk >= :sk',
    ExpressionAttributeNames: { '#pk': 'GSI3PK', '#sk': 'GSI3SK' },
    ExpressionAttributeValues: { ':pk': `${merchantPk(merchantId)}#VECLOG`, ':sk': since },
  }),
  customerTag: (merchantId: string, customerId: string, id: string) => ({ GSI2PK: customerDataPk(merchantId, customerId), GSI2SK: `VEC#${id}` }),
  customerVectors: (merchantId: string, customerId: string) => ({
    IndexName: 'GSI2',
    KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :sk)',
    ExpressionAttributeNames: { '#pk': 'GSI2PK', '#sk': 'GSI2SK' },
    ExpressionAttributeValues: { ':pk': customerDataPk(merchantId, customerId), ':sk': 'VEC#' },
  }),
} as const;

export const VECTOR_ENTITY = {
  vector: 'recovery_vector',
  version: 'recovery_vector_version',
} as const;

/**
 * Internal endpoints and data exports (issue 16; functions/api/internal, functions/data/export-job-repository.ts):
 * | a stored provider delivery by its id alone (GET /internal/webhook/{id}, DELETE /internal/webhook-cleanup/{id}) | PK = WHKID#<body>, SK = WHKID → merchant id | table |
 * | a merchant's export job (`exp_<body>`, time-ordered) | PK = M#<m>, SK = EXPORTJOB#<body> | table |
 * | a merchant's export jobs, newest first (operator CLI) | PK = M#<m>, SK begins_with EXPORTJOB#, descending | table |
 * | a merchant's payments and recoveries (the export job; one item holds both) | PK = M#<m>, SK begins_with PAY# | table |
 * | a merchant's customers (the export job) | PK = M#<m>, SK begins_with CUST# | table |
 * The delivery lookup cannot start with `M#`: a delivery's id (`whk_<body>`) does not name its
 * merchant, and the internal routes are called with the id alone. It holds the merchant id and
 * nothing about the payload or any customer, is written in the transaction that stores the
 * delivery, and expires with it (TTL `expires_at`). Erasing a customer deletes the delivery; the
 * lookup left behind names nothing that can be read (404) and expires on schedule.
 * `PAYREF#`, `CUSTEMAIL#`, `CUSTREF#` and `CUSTOPEN` do not begin with `PAY#` or `CUST#`.
 */
export const internalKeys = {
  webhookLogById: (body: string): ItemKey => ({ PK: `WHKID#${body}`, SK: 'WHKID' }),
  /** The links of one delivery to the further customers it concerns (webhookLogKeys.customerLink). */
  webhookLogLinks: (merchantId: string, body: string) => queries.partitionPrefix({ PK: merchantPk(merchantId), SKPrefix: `WHKLINK#${body}#` }),
  exportJob: (merchantId: string, body: string): ItemKey => ({ PK: merchantPk(merchantId), SK: `EXPORTJOB#${body}` }),
  exportJobs: (merchantId: string) => queries.partitionPrefix({ PK: merchantPk(merchantId), SKPrefix: 'EXPORTJOB#' }),
  payments: (merchantId: string) => queries.partitionPrefix({ PK: merchantPk(merchantId), SKPrefix: paymentKeys.paymentPrefix }),
  customers: (merchantId: string) => queries.partitionPrefix({ PK: merchantPk(merchantId), SKPrefix: customerKeys.customerPrefix }),
} as const;

export const INTERNAL_ENTITY = {
  webhookLogLookup: 'webhook_log_lookup',
  exportJob: 'export_job',
} as const;

/**
 * Daily jobs (issue 16; functions/services/retention-cleanup.ts, billing-metering.ts):
 * | stored payloads past their 30 days, every merchant (daily `retention-cleanup`) | GSI4PK = RETAIN#<shard 0-7>, GSI4SK <= <now>#~ (sort key `<expires at ISO>#<merchant>#<body>`) | GSI4 |
 * | a merchant's billing metering of one UTC day (daily `billing-metering`; one item, rewritten by a rerun) | PK = M#<m>, SK = METER#<YYYY-MM-DD> | table |
 * | a merchant's metering from one day to another (operator CLI `metering show`) | PK = M#<m>, SK BETWEEN METER#<from> AND METER#<to> | table |
 * The retention index is written on the items that hold a payload (stored provider deliveries
 * `WHK#`, outbound events `EVT#`) when they are put, with their TTL time as the sort key: DynamoDB's
 * TTL deletes them eventually (days late at worst, never on DynamoDB Local), the daily task deletes
 * what the index says is past. It shares GSI4 with the other due indexes (`DUE#`, `MSGDUE#`,
 * `CAMPDUE#`, `WHDUE#`, open customers): the partition prefixes differ. Items put before this index
 * existed are not in it; TTL still removes them. `METER#` items hold counts and amounts only.
 */
export const RETENTION_SHARDS = 8;

export const dailyJobKeys = {
  retentionShardPk: (shard: number): string => `RETAIN#${shard}`,
  /** The retention entry of a payload item: due at its expiry (epoch seconds, the TTL attribute). */
  retention: (merchantId: string, body: string, expiresAtSeconds: number) => {
    let hash = 0;
    for (let i = 0; i < body.length; i += 1) hash = (hash * 31 + body.charCodeAt(i)) >>> 0;
    const dueAt = new Date(expiresAtSeconds * 1000).toISOString();
    return { GSI4PK: `RETAIN#${hash % RETENTION_SHARDS}`, GSI4SK: `${dueAt}#${merchantId}#${body}` };
  },
  /** The expiry, merchant and body of a retention entry's sort key: the due indexes' layout, read as theirs. */
  retentionParse: dueRetryKeys.parse,
  /** The highest retention sort key due at `at`. */
  retentionUpTo: dueRetryKeys.dueUpTo,
  metering: (merchantId: string, day: string): ItemKey => ({ PK: merchantPk(merchantId), SK: `METER#${day}` }),
  /** Key condition of a merchant's metering items from day `from` to day `to` (both included). */
  meteringRange: (merchantId: string, from: string, to: string) => queries.sortKeyBetween(merchantPk(merchantId), `METER#${from}`, `METER#${to}`),
} as const;

export const DAILY_JOB_ENTITY = {
  metering: 'billing_metering',
} as const;

/**
 * Email sending domains (issue 16; functions/data/email-domain-repository.ts, docs/email-domains.md):
 * | one sending domain                                    | PK = M#<m>, SK = EMAILDOM#<body> (`edom_<body>`, time-ordered) | table |
 * | the merchant's domains (at most 2: one managed, one custom; the send path's sender) | PK = M#<m>, SK begins_with EMAILDOM# | table |
 * | the merchant's domain of one kind (at most one each; the create transaction's condition) | PK = M#<m>, SK = EMAILDOMSLOT#<kind> → domain id | table |
 * | who holds a domain name (one merchant; the create transaction's condition) | PK = EMAILDOMCLAIM#<domain>, SK = EMAILDOMCLAIM | table |
 * | pending domains, every merchant, oldest first (daily task `pending-domain-provisioning`) | GSI1PK = EMAILDOMPENDING, GSI1SK = <created_at>#<merchant>#<body> (sparse: only `pending`) | GSI1 |
 * | warming-up domains, every merchant (daily task `domain-warm-up`) | GSI3PK = EMAILDOMWARMING, GSI3SK = <verified_at>#<merchant>#<body> (sparse: only capped ones) | GSI3 |
 * | a domain's sends of one UTC day (the warm-up cap's counter; TTL `expires_at`) | PK = M#<m>, SK = EMAILDOMSENT#<body>#<YYYY-MM-DD> | table |
 * The claim is not under `M#`: a domain name belongs to one merchant across the service, like a
 * shop domain. `EMAILDOMSLOT#` and `EMAILDOMSENT#` do not begin with `EMAILDOM#`. The two index
 * partitions are service-wide but small: a domain is in them only while pending (72 h at most)
 * or warming up (8 days), and each is read by one daily task.
 */
const wholeIndexPartition = (index: 'GSI1' | 'GSI3', partition: string) => ({
  IndexName: index,
  KeyConditionExpression: '#pk = :pk',
  ExpressionAttributeNames: { '#pk': `${index}PK` },
  ExpressionAttributeValues: { ':pk': partition },
});

export const emailDomainKeys = {
  domain: (merchantId: string, body: string): ItemKey => ({ PK: merchantPk(merchantId), SK: `EMAILDOM#${body}` }),
  domains: (merchantId: string) => queries.partitionPrefix({ PK: merchantPk(merchantId), SKPrefix: 'EMAILDOM#' }),
  slot: (merchantId: string, kind: string): ItemKey => ({ PK: merchantPk(merchantId), SK: `EMAILDOMSLOT#${kind}` }),
  claim: (domain: string): ItemKey => ({ PK: `EMAILDOMCLAIM#${domain}`, SK: 'EMAILDOMCLAIM' }),
  pendingEntry: (merchantId: string, body: string, createdAt: string) => ({ GSI1PK: 'EMAILDOMPENDING', GSI1SK: `${createdAt}#${merchantId}#${body}` }),
  pending: () => wholeIndexPartition('GSI1', 'EMAILDOMPENDING'),
  warmingEntry: (merchantId: string, body: string, verifiedAt: string) => ({ GSI3PK: 'EMAILDOMWARMING', GSI3SK: `${verifiedAt}#${merchantId}#${body}` }),
  warming: () => wholeIndexPartition('GSI3', 'EMAILDOMWARMING'),
  sentOn: (merchantId: string, body: string, day: string): ItemKey => ({ PK: merchantPk(merchantId), SK: `EMAILDOMSENT#${body}#${day}` }),
} as const;

export const EMAIL_DOMAIN_ENTITY = {
  domain: 'email_domain',
  slot: 'email_domain_slot',
  claim: 'email_domain_claim',
  sent: 'email_domain_sent',
} as const;

/**
 * The session proxy's browser sessions and WebSocket tickets (functions/data/browser-session-repository.ts).
 * Like API keys, these are found by a secret's SHA-256 before any merchant is known (an identity
 * provider's user is not a merchant's resource), so their partitions start with the hash:
 * | a session id, by its SHA-256 (the session_cookie authenticator) | PK = WSSESSION#<sha256>, SK = WSSESSION | table |
 * | a session family: status and every member's hash (rotation, reuse revocation) | PK = WSFAMILY#<family id>, SK = WSFAMILY | table |
 * | a WebSocket ticket, by its SHA-256 (single use: conditional delete) | PK = WSTICKET#<sha256>, SK = WSTICKET | table |
 * | an API Gateway WebSocket connection (AWS: $connect writes, $disconnect deletes) | PK = WSCONN#<connection id>, SK = WSCONN | table |
 * Every item carries `expires_at` (epoch seconds), the table's TTL.
 */
export const browserSessionKeys = {
  session: (sessionHash: string): ItemKey => ({ PK: `WSSESSION#${sessionHash}`, SK: 'WSSESSION' }),
  family: (familyId: string): ItemKey => ({ PK: `WSFAMILY#${familyId}`, SK: 'WSFAMILY' }),
  ticket: (ticketHash: string): ItemKey => ({ PK: `WSTICKET#${ticketHash}`, SK: 'WSTICKET' }),
  connection: (connectionId: string): ItemKey => ({ PK: `WSCONN#${connectionId}`, SK: 'WSCONN' }),
} as const;

export const BROWSER_SESSION_ENTITY = {
  session: 'browser_session',
  family: 'browser_session_family',
  ticket: 'websocket_ticket',
  connection: 'websocket_connection',
} as const;

/** Shards of the custom-hostname check index: hostnames provisioned together spread over this many partitions. */
export const HOSTNAME_DUE_SHARDS = 4;

/**
 * Custom hostnames (issue 16; functions/data/custom-hostname-repository.ts, functions/jobs/check-custom-hostnames.ts):
 * | one custom hostname (`chn_<body>`, time-ordered) | PK = M#<m>, SK = CHN#<body> | table |
 * | a merchant's custom hostnames, oldest first | PK = M#<m>, SK begins_with CHN# | table |
 * | the merchant's count of hostnames not deleted (at most MAX_CUSTOM_HOSTNAMES) | PK = M#<m>, SK = CHNCOUNT | table |
 * | the claim of a hostname, across merchants (unique; merchant and hostname id) | PK = CHNCLAIM#<hostname>, SK = CHNCLAIM | table |
 * | hostnames due for a DNS re-check, every merchant (every-minute task `check-custom-hostnames`) | GSI4PK = CHNDUE#<shard 0-3>, GSI4SK <= <now>#~ (sparse: pending and active hostnames) | GSI4 |
 * The claim is not under `M#`: a hostname belongs to one merchant of all, so its claim is written
 * with `attribute_not_exists` in the transaction that creates the hostname, and deleted in the one
 * that deletes it. `CHNCOUNT` and `CHNCLAIM` do not begin with `CHN#`.
 */
export const customHostnameKeys = {
  hostname: (merchantId: string, body: string): ItemKey => ({ PK: merchantPk(merchantId), SK: `CHN#${body}` }),
  hostnames: (merchantId: string) => queries.partitionPrefix({ PK: merchantPk(merchantId), SKPrefix: 'CHN#' }),
  count: (merchantId: string): ItemKey => ({ PK: merchantPk(merchantId), SK: 'CHNCOUNT' }),
  claim: (hostname: string): ItemKey => ({ PK: `CHNCLAIM#${hostname}`, SK: 'CHNCLAIM' }),
} as const;

export const customHostnameDueKeys = {
  shardPk: (shard: number): string => `CHNDUE#${shard}`,
  entry: (merchantId: string, body: string, dueAt: string) => {
    let hash = 0;
    for (let i = 0; i < body.length; i += 1) hash = (hash * 31 + body.charCodeAt(i)) >>> 0;
    return { GSI4PK: `CHNDUE#${hash % HOSTNAME_DUE_SHARDS}`, GSI4SK: `${dueAt}#${merchantId}#${body}` };
  },
  /** The merchant and hostname body of a due entry's sort key. */
  parse: (sortKey: string): { dueAt: string; merchantId: string; body: string } | undefined => {
    const [dueAt, merchantId, body] = sortKey.split('#');
    return dueAt && merchantId && body ? { dueAt, merchantId, body } : undefined;
  },
  dueUpTo: (at: string): string => `${at}#~`,
} as const;

export const CUSTOM_HOSTNAME_ENTITY = { hostname: 'custom_hostname', claim: 'custom_hostname_claim' } as const;

/** Shards of the card-expiry index: one month's customers of every merchant spread over this many partitions. */
export const CARD_EXPIRY_SHARDS = 8;

/**
 * Cards on file by expiry month (issue 16, daily `card-expiry-checks`; functions/data/card-expiry-repository.ts):
 * | a customer's card-expiry entry (one per customer, moved with its expiry) | PK = M#<m>, SK = CARDEXP#<customer body> | table |
 * | customers whose card expires in a month, every merchant | GSI1PK = CARDEXP#<YYYY-MM>#<shard 0-7>, GSI1SK = <merchant>#<customer body> | GSI1 |
 * | a customer's entry (erasure) | GSI2PK = M#<m>#C#<customer>, GSI2SK = CARDEXP#<customer body> | GSI2 |
 * The customer item carries `card_expiry` for reads; the entry exists only while an expiry is known,
 * and is put or deleted in the same transaction as the customer write that changes it
 * (customer-repository putCustomer), so the index never disagrees with the customer for longer
 * than GSI1's propagation. The partition is not under `M#`: the daily task reads one month of
 * every merchant (8 Queries a month), never a Scan; the shard is a hash of the customer body.
 */
export const cardExpiryKeys = {
  entry: (merchantId: string, customerBody: string): ItemKey => ({ PK: merchantPk(merchantId), SK: `CARDEXP#${customerBody}` }),
  shardPk: (month: string, shard: number): string => `CARDEXP#${month}#${shard}`,
  index: (merchantId: string, customerBody: string, month: string) => {
    let hash = 0;
    for (let i = 0; i < customerBody.length; i += 1) hash = (hash * 31 + customerBody.charCodeAt(i)) >>> 0;
    return { GSI1PK: `CARDEXP#${month}#${hash % CARD_EXPIRY_SHARDS}`, GSI1SK: `${merchantId}#${customerBody}` };
  },
  /** The merchant and customer body of an index entry's sort key. */
  parse: (sortKey: string): { merchantId: string; customerBody: string } | undefined => {
    const [merchantId, customerBody] = sortKey.split('#');
    return merchantId && customerBody ? { merchantId, customerBody } : undefined;
  },
} as const;

export const CARD_EXPIRY_ENTITY = { entry: 'card_expiry_entry' } as const;

/** Shards of the upcoming-charge index: one day's renewals of every merchant spread over this many partitions. */
export const UPCOMING_CHARGE_SHARDS = 8;

/**
 * Upcoming charges (issue 16, daily `pre-dunning-notifications`; functions/data/upcoming-charge-repository.ts):
 * | one upcoming charge (`upc_<body>`, derived from psp, subscription and due time) | PK = M#<m>, SK = UPCHG#<body> | table |
 * | charges due on a UTC day, every merchant | GSI1PK = UPCHG#<YYYY-MM-DD>#<shard 0-7>, GSI1SK = <merchant>#<body> | GSI1 |
 * | a customer's upcoming charges (erasure) | GSI2PK = M#<m>#C#<customer>, GSI2SK = UPCHG#<body> | GSI2 |
 * Kept until 30 days after the charge (TTL `expires_at`). The day partition is not under `M#`: the
 * daily task reads the next 7 days of every merchant (56 Queries), never a Scan.
 */
export const upcomingChargeKeys = {
  charge: (merchantId: string, body: string): ItemKey => ({ PK: merchantPk(merchantId), SK: `UPCHG#${body}` }),
  shardPk: (day: string, shard: number): string => `UPCHG#${day}#${shard}`,
  index: (merchantId: string, body: string, day: string) => {
    let hash = 0;
    for (let i = 0; i < body.length; i += 1) hash = (hash * 31 + body.charCodeAt(i)) >>> 0;
    return { GSI1PK: `UPCHG#${day}#${hash % UPCOMING_CHARGE_SHARDS}`, GSI1SK: `${merchantId}#${body}` };
  },
  /** The merchant and charge body of an index entry's sort key. */
  parse: (sortKey: string): { merchantId: string; body: string } | undefined => {
    const [merchantId, body] = sortKey.split('#');
    return merchantId && body ? { merchantId, body } : undefined;
  },
} as const;

export const UPCOMING_CHARGE_ENTITY = { charge: 'upcoming_charge' } as const;

/**
 * Recovering failed webhook deliveries (issue 13; POST /webhooks/endpoints/{id}/recover,
 * functions/services/recover-webhook-deliveries.ts):
 * | the merchant's delivery log from an instant on, oldest first (every attempt of the events of the window: later attempts sort later) | PK = M#<m>, SK BETWEEN WHDLV#<floor body of since> AND WHDLV#~ | table |
 * A log row's body starts with its attempt's scheduled time (webhookKeys), and an event's first
 * attempt is scheduled at the event's creation, so every attempt of an event created at or after
 * `since` sorts at or after `since`'s floor body. The rows of all endpoints are read (the key holds
 * no endpoint): the cost is the merchant's attempts logged since `since`.
 */
export const webhookRecoveryKeys = {
  /** Key condition of the log rows (`WHDLV#<body>`) whose body is at least `fromBody`. */
  deliveriesFrom: (merchantId: string, fromBody: string) => queries.sortKeyBetween(merchantPk(merchantId), `WHDLV#${fromBody}`, 'WHDLV#~'),
} as const;
