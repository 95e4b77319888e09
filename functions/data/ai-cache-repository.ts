import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { env } from '#shared/env';
import { documentClient } from './client';
import { type AiCachedAnswer, aiCachedAnswerEntity } from './entities/ai-cached-answer';
import { aiGenerationKeys } from './keys';

export type { AiCachedAnswer } from './entities/ai-cached-answer';

/** The merchant's cached answer for a prompt hash, unless absent or expired at `now` (one GetItem). */
export async function getCachedAnswer(merchantId: string, promptHash: string, now: Date = new Date()): Promise<AiCachedAnswer | undefined> {
  const { Item } = await documentClient.send(new GetCommand({ TableName: env.TABLE_NAME, Key: aiGenerationKeys.cachedAnswer(merchantId, promptHash) }));
  if (Item === undefined) return undefined;
  const answer = aiCachedAnswerEntity.fromItem(Item);
  return answer.expires_at * 1000 > now.getTime() ? answer : undefined;
}

/** Keeps an answer until its `expires_at`, replacing an expired one of the same hash (one PutItem). */
export async function putCachedAnswer(merchantId: string, answer: AiCachedAnswer): Promise<void> {
  await documentClient.send(new PutCommand({ TableName: env.TABLE_NAME, Item: aiCachedAnswerEntity.toItem(answer, { merchantId }) }));
}
