import type { CallbackTokenSource } from '../callback-token-repository';
import { callbackTokenKeys, ENTITY } from '../keys';
import { defineEntity } from './define-entity';

/** A spent callback token: where it came from and when, and until when it is kept. */
export interface SpentCallbackToken {
  readonly source: CallbackTokenSource;
  readonly created_at: string;
  /** Epoch seconds: the table's TTL attribute. */
  readonly expires_at: number;
}

/** A spent token, by the SHA-256 of the token (its place: the hash is in the key and nowhere else on the item). */
export const callbackTokenEntity = defineEntity<SpentCallbackToken, { readonly token_hash: string }>({
  name: ENTITY.callbackToken,
  key: (token, { token_hash }) => callbackTokenKeys.token(token.source, token_hash),
});
