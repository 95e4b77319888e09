import { HOSTED_ENTITY, hostedKeys } from '../keys';
import { defineEntity } from './define-entity';

/** An update-payment link: whose customer and payment it is for, which message carried it, until when it works. */
export interface UpdatePaymentLink {
  readonly merchant_id: string;
  readonly customer_id: string;
  readonly payment_id: string | null;
  /** The message whose `update_payment_url` it is; null for the widget's link. */
  readonly message_id: string | null;
  readonly created_at: string;
  /** Epoch seconds: the link answers 404 from then on, and the table's TTL deletes it. */
  readonly expires_at: number;
  /** When the link was first followed, and how often (markUpdatePaymentLinkClicked); absent until then. */
  readonly clicked_at?: string;
  readonly clicks?: number;
}

/** A link, by the SHA-256 of its token (the token itself is never stored), tagged for the customer's erasure. */
export const updatePaymentTokenEntity = defineEntity<UpdatePaymentLink, { readonly token_hash: string }>({
  name: HOSTED_ENTITY.updatePaymentToken,
  key: (_link, { token_hash }) => hostedKeys.updatePaymentToken(token_hash),
  indexes: (link, { token_hash }) => hostedKeys.updatePaymentTokenTag(link.merchant_id, link.customer_id, token_hash),
});
