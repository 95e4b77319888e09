/**
 * `npx tsx bench/dynamo-local-profile.ts`: two facts about DynamoDB Local that explain issue 12's
 * throughput figures (bench/README.md, "Issue 12: before and after"). Each part runs on a
 * DynamoDB Local of its own (in memory, a free port), nothing from functions/.
 *
 * 1. Hot items: 8 workers send TransactWriteItems at once, each a Put of an item of its own and
 *    an ADD on one shared counter item (the shape of the old payment transactions). On DynamoDB
 *    a transaction that finds another holding one of its items is cancelled with
 *    TransactionConflict; the count printed is how many DynamoDB Local cancels.
 * 2. The stream's cost: 5 rounds of 1,500 PutItem (8 at a time), each round in a new table that
 *    is deleted after it, once with the table's stream on (NEW_AND_OLD_IMAGES) and once without.
 */
import {
  CreateTableCommand,
  DeleteTableCommand,
  DynamoDBClient,
  PutItemCommand,
  TransactionCanceledException,
  TransactWriteItemsCommand,
} from '@aws-sdk/client-dynamodb';
import { startDynamoLocal } from '#lib/local/dynamo-local';

const WORKERS = 8;

async function withLocal<T>(work: (client: DynamoDBClient) => Promise<T>): Promise<T> {
  const local = await startDynamoLocal();
  const client = new DynamoDBClient({ endpoint: local.endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  try {
    return await work(client);
  } finally {
    client.destroy();
    await local.stop();
  }
}

async function createTable(client: DynamoDBClient, name: string, stream: boolean): Promise<void> {
  await client.send(
    new CreateTableCommand({
      TableName: name,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [{ AttributeName: 'PK', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'PK', KeyType: 'HASH' }],
      ...(stream ? { StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' } } : {}),
    }),
  );
}

async function inParallel(count: number, work: (index: number) => Promise<void>): Promise<number> {
  const started = Date.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: WORKERS }, async () => {
      while (next < count) await work(next++);
    }),
  );
  return Date.now() - started;
}

async function hotItems(): Promise<string> {
  return withLocal(async (client) => {
    await createTable(client, 'hot-items', false);
    let conflicts = 0;
    let other = 0;
    const ms = await inParallel(2_000, async (index) => {
      for (;;) {
        try {
          await client.send(
            new TransactWriteItemsCommand({
              TransactItems: [
                { Put: { TableName: 'hot-items', Item: { PK: { S: `item-${index}` }, body: { S: 'x'.repeat(600) } } } },
                {
                  Update: {
                    TableName: 'hot-items',
                    Key: { PK: { S: 'COUNT' } },
                    UpdateExpression: 'ADD #n :one',
                    ExpressionAttributeNames: { '#n': 'n' },
                    ExpressionAttributeValues: { ':one': { N: '1' } },
                  },
                },
              ],
            }),
          );
          return;
        } catch (error) {
          if (!(error instanceof TransactionCanceledException)) throw error;
          if ((error.CancellationReasons ?? []).some((reason) => reason.Code === 'TransactionConflict')) conflicts += 1;
          else other += 1;
        }
      }
    });
    return `hot items: 2,000 transactions (own item + ADD on one shared counter), ${WORKERS} at once, in ${ms} ms: ${conflicts} cancelled with TransactionConflict, ${other} cancelled otherwise`;
  });
}

async function streamCost(stream: boolean): Promise<string> {
  return withLocal(async (client) => {
    const rounds: number[] = [];
    for (let round = 0; round < 5; round += 1) {
      const name = `stream-cost-${round}`;
      await createTable(client, name, stream);
      rounds.push(
        await inParallel(1_500, async (index) => {
          await client.send(new PutItemCommand({ TableName: name, Item: { PK: { S: `item-${index}` }, body: { S: 'x'.repeat(600) }, meta: { M: {} } } }));
        }),
      );
      await client.send(new DeleteTableCommand({ TableName: name }));
    }
    return `stream ${stream ? 'on ' : 'off'}: 1,500 PutItem per round, ms per round: ${rounds.join(', ')}`;
  });
}

async function main(): Promise<void> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  for (const line of [await hotItems(), await streamCost(true), await streamCost(false)]) process.stdout.write(`${line}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
