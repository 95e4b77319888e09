/**
 * The local twin of the stream's event source mapping (lib/local/table-stream.ts) against DynamoDB
 * Local's stream: the Lambda event shape, batches of at most 100 records, and a reported
 * `batchItemFailures` entry retried from that record, as Lambda does.
 */
import { BatchWriteCommand, DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { documentClient, dynamo } from '#data/client';
import { paymentKeys } from '#data/keys';
import { LocalTableStream, LocalTableStreams } from '#lib/local/table-stream';

const TableName = process.env.TABLE_NAME as string;
const streams: LocalTableStream[] = [];

/** A poller of this file's table with the given handler, stopped after the file. */
function pollerWith(
  handler: (event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse>,
  entities?: readonly string[],
  eventNames?: readonly string[],
): LocalTableStream {
  const stream = new LocalTableStream({
    endpoint: process.env.DYNAMODB_ENDPOINT as string,
    tableName: TableName,
    handler,
    ...(entities === undefined ? {} : { entities }),
    ...(eventNames === undefined ? {} : { eventNames }),
  });
  streams.push(stream);
  return stream;
}

afterAll(async () => {
  for (const stream of streams) await stream.stop();
  dynamo.destroy();
});

const key = (n: number) => paymentKeys.subscriptionInvoice(`merch_local${n % 3}`, 'sub_1', '2026-10-01', `body${String(n).padStart(4, '0')}`);

describe('LocalTableStream', () => {
  it('delivers each change once as a Lambda stream record, with both images and empty maps as AWS writes them', async () => {
    // Prepare
    const received: DynamoDBRecord[] = [];
    const stream = pollerWith(async (event) => {
      received.push(...event.Records);
      return { batchItemFailures: [] };
    });
    await documentClient.send(new PutCommand({ TableName, Item: { ...key(1), entity: 'test', note: 'first', empty: {} } }));
    await documentClient.send(new PutCommand({ TableName, Item: { ...key(1), entity: 'test', note: 'second', empty: {} } }));
    await documentClient.send(new DeleteCommand({ TableName, Key: key(1) }));
    // Act
    const counts = await stream.drain();
    const again = await stream.drain();
    // Assess
    expect(received.map((record) => record.eventName)).toEqual(['INSERT', 'MODIFY', 'REMOVE']);
    expect(counts).toMatchObject({ records: 3, failed: 0 });
    expect(again.records).toBe(0);
    const [insert, modify, remove] = received as [DynamoDBRecord, DynamoDBRecord, DynamoDBRecord];
    expect(insert).toMatchObject({
      eventSource: 'aws:dynamodb',
      eventSourceARN: expect.stringContaining(`table/${TableName}/stream/`),
      dynamodb: {
        Keys: { PK: { S: key(1).PK }, SK: { S: key(1).SK } },
        NewImage: { note: { S: 'first' }, empty: { M: {} } },
        StreamViewType: 'NEW_AND_OLD_IMAGES',
        SequenceNumber: expect.any(String),
        ApproximateCreationDateTime: expect.any(Number),
      },
    });
    expect(insert.eventID).toEqual(expect.any(String));
    expect(insert.dynamodb?.OldImage).toBeUndefined();
    expect(modify.dynamodb).toMatchObject({ OldImage: { note: { S: 'first' } }, NewImage: { note: { S: 'second' } } });
    expect(remove.dynamodb).toMatchObject({ OldImage: { note: { S: 'second' } } });
    expect(remove.dynamodb?.NewImage).toBeUndefined();
    expect(new Set(received.map((record) => record.eventID)).size).toBe(3);
  });

  it('hands at most 100 records to one invocation and retries from the record a handler reports as failed', async () => {
    // Prepare
    const batches: string[][] = [];
    let failOnce = true;
    const stream = pollerWith(async (event) => {
      batches.push(event.Records.map((record) => record.dynamodb?.SequenceNumber as string));
      const third = event.Records[2]?.dynamodb?.SequenceNumber;
      if (failOnce && third !== undefined) {
        failOnce = false;
        return { batchItemFailures: [{ itemIdentifier: third }] };
      }
      return { batchItemFailures: [] };
    });
    // Everything so far (the previous test's records) is read first.
    await stream.drain();
    batches.length = 0;
    failOnce = true;
    for (let start = 0; start < 150; start += 25) {
      const requests = Array.from({ length: 25 }, (_, index) => ({ PutRequest: { Item: { ...key(100 + start + index), entity: 'test' } } }));
      await documentClient.send(new BatchWriteCommand({ RequestItems: { [TableName]: requests } }));
    }
    // Act
    const counts = await stream.drain();
    // Assess
    const delivered = batches.flat();
    const failedAt = batches[0]?.[2];
    expect(batches.every((batch) => batch.length <= 100)).toBe(true);
    expect(counts).toMatchObject({ records: 150, failed: 1 });
    expect(batches[1]?.[0]).toBe(failedAt);
    // Records before the failed one are delivered once, the failed one and those after it twice at most.
    expect(delivered.filter((sequence) => sequence === batches[0]?.[0])).toHaveLength(1);
    expect(new Set(delivered).size).toBe(150);
  });

  it('filters like the event source mapping: only records whose new or old image is a listed entity reach the handler, and the place moves past the others', async () => {
    // Prepare: the records of the tests before (other entities) are passed over first.
    const received: DynamoDBRecord[] = [];
    const stream = pollerWith(
      async (event) => {
        received.push(...event.Records);
        return { batchItemFailures: [] };
      },
      ['counted'],
    );
    await stream.drain();
    received.length = 0;
    await documentClient.send(new PutCommand({ TableName, Item: { ...key(7), entity: 'other', note: 'skipped' } }));
    await documentClient.send(new PutCommand({ TableName, Item: { ...key(8), entity: 'counted', note: 'inserted' } }));
    await documentClient.send(new DeleteCommand({ TableName, Key: key(8) }));
    await documentClient.send(new PutCommand({ TableName, Item: { ...key(9), entity: 'other', note: 'skipped too' } }));
    // Act
    const counts = await stream.drain();
    const again = await stream.drain();
    // Assess: the insert and the removal (old image only) of the counted item; nothing read twice.
    expect(received.map((record) => [record.eventName, record.dynamodb?.Keys?.SK?.S])).toEqual([
      ['INSERT', key(8).SK],
      ['REMOVE', key(8).SK],
    ]);
    expect(counts).toMatchObject({ records: 2, failed: 0 });
    expect(again.records).toBe(0);
  });

  it('filters on the event name too, and drains several consumers of the one stream each from its own place (projections and the dispatcher)', async () => {
    // Prepare: both pollers pass over the records of the tests before.
    const all: string[] = [];
    const inserts: string[] = [];
    const record = (into: string[]) => async (event: DynamoDBStreamEvent) => {
      into.push(...event.Records.map((r) => `${r.eventName} ${r.dynamodb?.Keys?.SK?.S}`));
      return { batchItemFailures: [] };
    };
    const streams = new LocalTableStreams([pollerWith(record(all), ['counted']), pollerWith(record(inserts), ['counted'], ['INSERT'])]);
    await streams.drain();
    all.length = 0;
    inserts.length = 0;
    await documentClient.send(new PutCommand({ TableName, Item: { ...key(10), entity: 'counted', note: 'inserted' } }));
    await documentClient.send(new PutCommand({ TableName, Item: { ...key(10), entity: 'counted', note: 'modified' } }));
    await documentClient.send(new DeleteCommand({ TableName, Key: key(10) }));
    // Act
    const counts = await streams.drain();
    // Assess
    expect(all).toEqual([`INSERT ${key(10).SK}`, `MODIFY ${key(10).SK}`, `REMOVE ${key(10).SK}`]);
    expect(inserts).toEqual([`INSERT ${key(10).SK}`]);
    expect(counts).toMatchObject({ records: 4, failed: 0 });
  });
});
