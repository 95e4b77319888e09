import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { SQSClient } from '@aws-sdk/client-sqs';
import { sqsDeadLetterQueues } from '#adapters/dead-letters/sqs';
import { type FakeSqs, startFakeSqs } from '#test/fakes/sqs-api';

/** The AWS adapter of the DLQ port against a loopback fake that speaks SQS's JSON protocol. */
jest.setTimeout(90_000);

const root = join(__dirname, '..', '..', '..', '..');
const SENT = Date.parse('2026-11-20T10:00:00.000Z');
const messageOf = (i: number) => ({
  body: JSON.stringify({ kind: 'provider_webhook', merchant_id: 'merch_sqs', psp: 'stripe', webhook_log_id: `whk_${i}` }),
  sentTimestamp: SENT + i * 1000,
  receiveCount: 5,
});

describe('SQS dead-letter queues', () => {
  let sqs: FakeSqs;
  let client: SQSClient;

  beforeAll(async () => {
    sqs = await startFakeSqs(Array.from({ length: 12 }, (_, i) => messageOf(i)));
    client = new SQSClient({ region: 'us-east-1', endpoint: sqs.url, credentials: { accessKeyId: 'fake', secretAccessKey: 'fake' } });
  });
  afterAll(async () => {
    client.destroy();
    await sqs.stop();
  });
  beforeEach(() => {
    sqs.calls.length = 0;
  });

  it('lists distinct messages, oldest first, with visibility 0 and without deleting any', async () => {
    // Prepare
    const queues = sqsDeadLetterQueues(client, () => sqs.queueUrl);

    // Act
    const listed = await queues.list('inbound-webhooks', 12);

    // Assess
    expect(listed).toHaveLength(12);
    expect(new Set(listed.map((message) => message.message_id)).size).toBe(12);
    expect(listed[0]).toEqual({
      queue: 'inbound-webhooks',
      message_id: expect.any(String),
      body: { kind: 'provider_webhook', merchant_id: 'merch_sqs', psp: 'stripe', webhook_log_id: 'whk_0' },
      receive_count: 5,
      sent_at: '2026-11-20T10:00:00.000Z',
      dead_lettered_at: null,
    });
    expect(listed.map((message) => message.sent_at)).toEqual([...listed.map((message) => message.sent_at)].sort());
    expect(sqs.calls.every((call) => call.action === 'ReceiveMessage' && call.input.VisibilityTimeout === 0)).toBe(true);
    expect(sqs.calls.every((call) => Number(call.input.MaxNumberOfMessages) <= 10)).toBe(true);
  });

  it('stops at the limit', async () => {
    // Act
    const listed = await sqsDeadLetterQueues(client, () => sqs.queueUrl).list('inbound-webhooks', 3);

    // Assess
    expect(listed).toHaveLength(3);
    expect(sqs.calls).toHaveLength(1);
  });

  it("redrives with a move task from the DLQ's ARN back to its source queue", async () => {
    // Act
    const result = await sqsDeadLetterQueues(client, () => sqs.queueUrl).redrive('inbound-webhooks');

    // Assess
    expect(result).toEqual({
      queue: 'inbound-webhooks',
      adapter: 'sqs',
      moved: null,
      succeeded: null,
      dead_lettered_again: null,
      task_handle: expect.stringMatching(/^task-/),
    });
    expect(sqs.calls.map((call) => call.action)).toEqual(['GetQueueAttributes', 'StartMessageMoveTask']);
    expect(sqs.calls[1]?.input).toEqual({ SourceArn: sqs.queueArn });
  });

  it("fails with SQS's error for a queue that does not exist", async () => {
    // Act
    const listing = sqsDeadLetterQueues(client, () => `${sqs.url}/000000000000/nope`).list('inbound-webhooks', 5);

    // Assess
    await expect(listing).rejects.toMatchObject({ name: 'QueueDoesNotExist' });
  });

  it('is what `npm run admin -- dlq list --dlq-url` uses, with no table and no SDK warning on stderr', async () => {
    // Prepare: no table, no local stack: the AWS path (the queue URL is the SDK's endpoint).
    const { TABLE_NAME: _t, DYNAMODB_ENDPOINT: _d, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: _w, ...environment } = process.env;
    const env = { ...environment, AWS_ACCESS_KEY_ID: 'fake', AWS_SECRET_ACCESS_KEY: 'fake', AWS_REGION: 'us-east-1' };

    // Act
    const run = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        [join(root, 'bin', 'cli.mjs'), 'admin', 'dlq', 'list', '--dlq-url', sqs.queueUrl, '--limit', '2'],
        { cwd: root, env },
        (error, stdout, stderr) => resolve({ code: error === null ? 0 : Number(error.code), stdout, stderr }),
      );
    });

    // Assess
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(run.stdout)).toHaveLength(2);
    expect(sqs.calls.map((call) => call.action)).toEqual(['ReceiveMessage']);
  });
});
