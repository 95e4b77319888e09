import { cardIdentityOf } from '#core/card-caps';
import { type PaymentRecord, paymentBodyOf } from '#core/payments';
import { ENTITY, paymentKeys } from '../keys';
import { defineEntity } from './define-entity';

const bodyOf = (payment: PaymentRecord): string => paymentBodyOf(payment.id) as string;

/** Fields added by the retry engine, for items written before it. */
const RETRY_ENGINE_DEFAULTS = {
  network_code: null,
  advice_code: null,
  card_network: null,
  attempt: null,
  gateway_errors: 0,
  last_attempt_at: null,
  retry_requested_at: null,
} as const;

/** Fields added by recovery attribution (issue 12), for items written before it: an old recovered payment's method reads as null. */
const ATTRIBUTION_DEFAULTS = { recovery_method: null, card_updated_at: null } as const;

/**
 * A payment and its recovery (one item: `pe_<body>` and `rec_<body>` share the body). Indexes:
 * status (GSI1), the customer's data (GSI2, erasure), decline category (GSI3), and the due-retry
 * index (GSI4, only while a retry is scheduled or in flight).
 */
export const paymentEntity = defineEntity<PaymentRecord>({
  name: ENTITY.payment,
  key: (payment) => paymentKeys.payment(payment.merchant_id, bodyOf(payment)),
  indexes: (payment) =>
    paymentKeys.indexes(payment.merchant_id, {
      status: payment.status,
      decline_category: payment.decline_category,
      customer_id: payment.customer_id,
      created_at: payment.created_at,
      body: bodyOf(payment),
      next_retry_at: payment.next_retry_at,
    }),
  parse: (attributes) => {
    const payment = { ...RETRY_ENGINE_DEFAULTS, ...ATTRIBUTION_DEFAULTS, ...attributes } as unknown as PaymentRecord;
    return payment.card_identity === undefined ? { ...payment, card_identity: cardIdentityOf({ psp: payment.psp, customerId: payment.customer_id }) } : payment;
  },
});
