import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { MessageRecord } from '#core/messages';
import type { WinBackRecord } from '#core/win-back';
import { env } from '#shared/env';
import { documentClient } from './client';
import { winBackEntity } from './entities/win-back';
import { conditions } from './keys';
import { messagePut } from './message-repository';

/** Records a win-back offer and the email that carries it, in one transaction (neither exists without the other). */
export async function createWinBack(offer: WinBackRecord, message: MessageRecord): Promise<void> {
  await documentClient.send(
    new TransactWriteCommand({
      TransactItems: [{ Put: { TableName: env.TABLE_NAME, Item: winBackEntity.toItem(offer), ConditionExpression: conditions.absent } }, messagePut(message)],
    }),
  );
}
