import { HOSTED_ENTITY, hostedKeys } from '../keys';
import { defineEntity } from './define-entity';

/** A widget signature accepted once: when, and until when it is kept (replays inside the window are refused). */
export interface SpentWidgetSignature {
  readonly merchant_id: string;
  readonly created_at: string;
  /** Epoch seconds: the table's TTL attribute. */
  readonly expires_at: number;
}

/** A spent signature, by the SHA-256 of the signature (its place: the hash is in the key only). */
export const widgetSignatureEntity = defineEntity<SpentWidgetSignature, { readonly signature_hash: string }>({
  name: HOSTED_ENTITY.widgetSignature,
  key: (spent, { signature_hash }) => hostedKeys.widgetSignature(spent.merchant_id, signature_hash),
});
