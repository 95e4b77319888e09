/**
 * The relay's two AWS adapters over their real protocols, against the loopback fakes: the SQS FIFO
 * queue over SQS's JSON protocol (functions/adapters/aws/sqs-json.ts) and API Gateway's connection
 * management API (functions/adapters/aws/websocket-connections.ts), both signed with SigV4.
 */
import { AwsServiceError } from '#adapters/aws/signed-request';
import { sqsFifoQueue } from '#adapters/aws/sqs-json';
import { apiGatewayConnections } from '#adapters/aws/websocket-connections';
import { type FakeConnectionManagement, type FakeFifoQueue, startFakeConnectionManagement, startFakeFifoQueue } from '#test/fixtures/relay-peers';

jest.setTimeout(30_000);

const credentials = { accessKeyId: 'AKIDADAPTERS', secretAccessKey: 'adapters-secret' };

describe('relay adapters', () => {
  let fake: FakeFifoQueue;
  let management: FakeConnectionManagement;

  beforeAll(async () => {
    [fake, management] = await Promise.all([startFakeFifoQueue({ visibilityTimeoutSeconds: 30 }), startFakeConnectionManagement('prod')]);
  });

  afterAll(async () => {
    await Promise.all([fake?.close(), management?.close()]);
  });

  it('sends to a group and receives its messages in order, holding the group back while one is in flight', async () => {
    // Prepare
    const queue = sqsFifoQueue(fake.url, { region: 'eu-west-1', credentials });
    await queue.send('a1', 'conn-a', 'req-1');
    await queue.send('a2', 'conn-a', 'req-2');
    await queue.send('b1', 'conn-b', 'req-3');
    // Act
    const first = await queue.receive(1, 0);
    const second = await queue.receive(10, 0);
    await queue.deleteBatch([...first, ...second].map((message) => message.receiptHandle));
    // Assess
    expect(first.map(({ body, groupId }) => ({ body, groupId }))).toEqual([{ body: 'a1', groupId: 'conn-a' }]);
    expect(second.map(({ body, groupId }) => ({ body, groupId }))).toEqual([{ body: 'b1', groupId: 'conn-b' }]);
    const third = await queue.receive(10, 0);
    expect(third.map((message) => message.body)).toEqual(['a2']);
    expect(await queue.deleteBatch(third.map((message) => message.receiptHandle))).toEqual([]);
  });

  it('drops a second send of the same deduplication key, and hashes the key into an id SQS accepts', async () => {
    // Prepare
    const queue = sqsFifoQueue(fake.url, { region: 'eu-west-1', credentials });
    // Act
    await queue.send('once', 'conn-d', 'frame:JNaI9GV5oAMFmcw=');
    await queue.send('once', 'conn-d', 'frame:JNaI9GV5oAMFmcw=');
    const received = await queue.receive(10, 0);
    await queue.deleteBatch(received.map((message) => message.receiptHandle));
    // Assess
    expect(received.map((message) => message.body)).toEqual(['once']);
    expect(fake.sent.filter((message) => message.groupId === 'conn-d').map((message) => message.deduplicationId)).toEqual([
      expect.stringMatching(/^[0-9a-f]{64}$/),
      expect.stringMatching(/^[0-9a-f]{64}$/),
    ]);
  });

  it('makes a message visible again at once, answers the handles it could not delete, and reports SQS errors by code', async () => {
    // Prepare
    const queue = sqsFifoQueue(fake.url, { region: 'eu-west-1', credentials });
    await queue.send('again', 'conn-v', 'req-v');
    const [taken] = await queue.receive(1, 0);
    // Act
    await queue.changeVisibility(taken?.receiptHandle as string, 0);
    const [retaken] = await queue.receive(1, 0);
    const failed = await queue.deleteBatch([taken?.receiptHandle as string, retaken?.receiptHandle as string]);
    const missing = sqsFifoQueue(fake.url.replace('relay.fifo', 'other.fifo'), { region: 'eu-west-1', credentials }).send('x', 'g', 'k');
    // Assess
    expect(retaken?.body).toBe('again');
    expect(failed).toEqual([taken?.receiptHandle]);
    await expect(missing).rejects.toMatchObject({ name: 'QueueDoesNotExist', status: 400 });
    expect(fake.pending()).toBe(0);
  });

  it('posts text to a connection and deletes it, answering gone for a 410, and throws any other refusal', async () => {
    // Prepare
    const connections = apiGatewayConnections(management.endpoint, { region: 'eu-west-1', credentials });
    const otherStage = apiGatewayConnections(management.endpoint.replace('/prod', '/dev'), { region: 'eu-west-1', credentials });
    // Act
    const sent = await connections.post('L0SM9cOFvHcCIhw=', '{"échange":"ok"}');
    const deleted = await connections.delete('L0SM9cOFvHcCIhw=');
    const afterDelete = await connections.post('L0SM9cOFvHcCIhw=', 'late');
    const deletedAgain = await connections.delete('L0SM9cOFvHcCIhw=');
    const wrongStage = otherStage.post('abc=', 'x');
    // Assess
    expect([sent, deleted, afterDelete, deletedAgain]).toEqual(['sent', 'deleted', 'gone', 'gone']);
    expect(management.postsTo('L0SM9cOFvHcCIhw=')).toEqual(['{"échange":"ok"}']);
    await expect(wrongStage).rejects.toBeInstanceOf(AwsServiceError);
  });
});
