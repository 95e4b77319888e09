import { createHash, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback stand-in for SQS's JSON protocol (AWS JSON 1.0: POST /, `X-Amz-Target:
 * AmazonSQS.<Action>`), as far as the DLQ adapter uses it: ReceiveMessage (never hiding or deleting
 * a message; each call starts one message further on, as SQS's sampling returns overlapping
 * subsets), GetQueueAttributes (QueueArn) and StartMessageMoveTask. Any other action, or an
 * unknown queue, is SQS's error shape. Records every call.
 */
export interface FakeSqsMessage {
  readonly body: string;
  readonly sentTimestamp: number;
  readonly receiveCount: number;
}

export interface FakeSqsCall {
  readonly action: string;
  readonly input: Record<string, unknown>;
}

export interface FakeSqs {
  readonly url: string;
  /** The URL of the fake's one queue. */
  readonly queueUrl: string;
  readonly queueArn: string;
  readonly calls: FakeSqsCall[];
  stop(): Promise<void>;
}

const md5 = (text: string): string => createHash('md5').update(text).digest('hex');

export async function startFakeSqs(messages: readonly FakeSqsMessage[], queueName = 'recovery-inbound-webhooks-dlq'): Promise<FakeSqs> {
  const stored = messages.map((message) => ({ ...message, id: randomUUID() }));
  const calls: FakeSqsCall[] = [];
  let offset = 0;
  const queueArn = `arn:aws:sqs:us-east-1:000000000000:${queueName}`;
  const error = (type: string, message: string) => ({ status: 400, body: { __type: `com.amazonaws.sqs#${type}`, message } });
  const answer = (action: string, input: Record<string, unknown>, queueUrl: string): { status: number; body: unknown } => {
    if (action !== 'StartMessageMoveTask' && input.QueueUrl !== queueUrl) return error('QueueDoesNotExist', 'The specified queue does not exist.');
    switch (action) {
      case 'ReceiveMessage': {
        const max = Number(input.MaxNumberOfMessages ?? 1);
        const picked = stored.length === 0 ? [] : Array.from({ length: Math.min(max, stored.length) }, (_, i) => stored[(offset + i) % stored.length]!);
        offset += 1;
        return {
          status: 200,
          body: {
            Messages: picked.map((message) => ({
              MessageId: message.id,
              ReceiptHandle: randomUUID(),
              MD5OfBody: md5(message.body),
              Body: message.body,
              Attributes: { ApproximateReceiveCount: String(message.receiveCount), SentTimestamp: String(message.sentTimestamp) },
            })),
          },
        };
      }
      case 'GetQueueAttributes':
        return { status: 200, body: { Attributes: { QueueArn: queueArn } } };
      case 'StartMessageMoveTask':
        if (input.SourceArn !== queueArn)
          return error('ResourceNotFoundException', "The resource that you specified for the SourceArn parameter doesn't exist.");
        return { status: 200, body: { TaskHandle: `task-${randomUUID()}` } };
      default:
        return error('UnsupportedOperation', `${action} is not supported by the fake`);
    }
  };
  let base = '';
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const action = String(request.headers['x-amz-target'] ?? '').replace(/^AmazonSQS\./, '');
      const input = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
      calls.push({ action, input });
      const { status, body } = answer(action, input, `${base}/000000000000/${queueName}`);
      response.writeHead(status, {
        'content-type': 'application/x-amz-json-1.0',
        ...(status === 200 ? {} : { 'x-amzn-query-error': 'AWS.SimpleQueueService.NonExistentQueue;Sender' }),
      });
      response.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    queueUrl: `${base}/000000000000/${queueName}`,
    queueArn,
    calls,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
