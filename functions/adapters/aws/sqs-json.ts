import { createHash } from 'node:crypto';
import { awsJsonFailure, jsonObjectOf, stringOf } from './json-protocol';
import { type AwsClientConfig, SignedAwsClient } from './signed-request';

/**
 * An SQS FIFO queue over SQS's JSON protocol (`POST /` with `X-Amz-Target: AmazonSQS.<Action>`),
 * signed with SigV4 by `signed-request.ts` rather than through `@aws-sdk/client-sqs` (DESIGN §2:
 * bundle sizes: the WebSocket API's Lambda only sends). The endpoint is the queue URL's origin
 * (`https://sqs.<region>.amazonaws.com`), so a test points the whole adapter at a loopback fake by
 * giving it the fake's queue URL. Used by the session proxy's relay (docs/session-proxy.md).
 */

/** A received message: its body, the handle that deletes it, and its group (the connection id). */
export interface ReceivedMessage {
  readonly messageId: string;
  readonly receiptHandle: string;
  readonly body: string;
  readonly groupId: string | undefined;
}

export interface FifoQueue {
  /** Sends `body` in `groupId`'s order; SQS drops a second send of the same `deduplicationKey` within 5 minutes. */
  send(body: string, groupId: string, deduplicationKey: string): Promise<void>;
  /** Long-polls up to `waitSeconds` for up to `max` (1 to 10) messages. */
  receive(max: number, waitSeconds: number): Promise<ReceivedMessage[]>;
  /** Deletes handled messages; answers the receipt handles SQS did not delete. */
  deleteBatch(receiptHandles: readonly string[]): Promise<string[]>;
  /** Makes a received message visible again after `seconds` (0: at once, for another consumer). */
  changeVisibility(receiptHandle: string, seconds: number): Promise<void>;
}

/** SQS's deduplication id: at most 128 characters of a restricted set, so a hash of the key. */
const deduplicationIdOf = (key: string): string => createHash('sha256').update(key, 'utf8').digest('hex');

/** SQS allows at most 10 entries in one DeleteMessageBatch. */
const DELETE_BATCH = 10;

export function sqsFifoQueue(queueUrl: string, config: AwsClientConfig & { readonly region: string }): FifoQueue {
  const client = new SignedAwsClient(
    'sqs',
    (region) => `https://sqs.${region}.amazonaws.com`,
    { endpoint: new URL(queueUrl).origin, ...config },
    awsJsonFailure('SQS'),
  );
  const call = async (action: string, input: Record<string, unknown>): Promise<Record<string, unknown>> => {
    const answer = await client.send({
      method: 'POST',
      path: '/',
      headers: { 'content-type': 'application/x-amz-json-1.0', 'x-amz-target': `AmazonSQS.${action}` },
      body: JSON.stringify({ QueueUrl: queueUrl, ...input }),
    });
    return jsonObjectOf(answer.body);
  };
  return {
    async send(body, groupId, deduplicationKey) {
      await call('SendMessage', { MessageBody: body, MessageGroupId: groupId, MessageDeduplicationId: deduplicationIdOf(deduplicationKey) });
    },
    async receive(max, waitSeconds) {
      const answer = await call('ReceiveMessage', {
        MaxNumberOfMessages: Math.min(10, Math.max(1, max)),
        WaitTimeSeconds: waitSeconds,
        MessageSystemAttributeNames: ['MessageGroupId'],
      });
      const messages = Array.isArray(answer.Messages) ? (answer.Messages as Array<Record<string, unknown>>) : [];
      return messages.flatMap((message) => {
        const receiptHandle = stringOf(message.ReceiptHandle);
        if (receiptHandle === undefined) return [];
        const attributes = (message.Attributes ?? {}) as Record<string, unknown>;
        return [
          { messageId: stringOf(message.MessageId) ?? '', receiptHandle, body: stringOf(message.Body) ?? '', groupId: stringOf(attributes.MessageGroupId) },
        ];
      });
    },
    async deleteBatch(receiptHandles) {
      const failed: string[] = [];
      for (let start = 0; start < receiptHandles.length; start += DELETE_BATCH) {
        const chunk = receiptHandles.slice(start, start + DELETE_BATCH);
        const answer = await call('DeleteMessageBatch', { Entries: chunk.map((ReceiptHandle, index) => ({ Id: String(index), ReceiptHandle })) });
        const failures = Array.isArray(answer.Failed) ? (answer.Failed as Array<Record<string, unknown>>) : [];
        for (const failure of failures) {
          const handle = chunk[Number(failure.Id)];
          if (handle !== undefined) failed.push(handle);
        }
      }
      return failed;
    },
    async changeVisibility(receiptHandle, seconds) {
      await call('ChangeMessageVisibility', { ReceiptHandle: receiptHandle, VisibilityTimeout: seconds });
    },
  };
}
