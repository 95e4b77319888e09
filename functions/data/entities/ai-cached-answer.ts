import { AI_GENERATION_ENTITY, aiGenerationKeys } from '../keys';
import { defineEntity } from './define-entity';

/** A model's answer kept for an hour (keys.ts, "AI generation"). */
export interface AiCachedAnswer {
  readonly prompt_hash: string;
  readonly use_case: string;
  readonly text: string;
  readonly model: string;
  readonly tokens_used: number;
  readonly input_tokens?: number;
  readonly output_tokens?: number;
  readonly created_at: string;
  /** Unix seconds; the table's TTL attribute. */
  readonly expires_at: number;
}

export const aiCachedAnswerEntity = defineEntity<AiCachedAnswer, { readonly merchantId: string }>({
  name: AI_GENERATION_ENTITY.cachedAnswer,
  key: (answer, { merchantId }) => aiGenerationKeys.cachedAnswer(merchantId, answer.prompt_hash),
});
