import { randomUUID } from 'node:crypto';
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { createQueueConsumer, type QueueMessage } from '#consumers/consume';
import { handler as notificationsHandler } from '#consumers/notifications';
import { queueDefinitions } from '#contracts/queues';
import { LocalQueues } from '#lib/local/queue-hub';

function record(body: string): SQSRecord {
  return {
    messageId: randomUUID(),
    receiptHandle: 'receipt-handle',
    body,
    attributes: { ApproximateReceiveCount: '1', SentTimestamp: '0', SenderId: 'sender', ApproximateFirstReceiveTimestamp: '0' },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:notifications',
    awsRegion: 'us-east-1',
  };
}

const eventOf = (...records: SQSRecord[]): SQSEvent => ({ Records: records });

describe('createQueueConsumer', () => {
  it('reports the record as failed when its body is not JSON', async () => {
    // Prepare
    const processor = jest.fn(async () => undefined);
    const consume = createQueueConsumer('notifications', { 'dunning.email': processor });
    const bad = record('{"kind": "dunning.email"');

    // Act
    const response = await consume(eventOf(bad));

    // Assess
    expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: bad.messageId }] });
    expect(processor).not.toHaveBeenCalled();
  });

  it('reports the record as failed when its body has no string kind', async () => {
    // Prepare
    const consume = createQueueConsumer('notifications', { 'dunning.email': async () => undefined });
    const records = [record('[1,2]'), record('{"type":"dunning.email"}'), record('{"kind":""}')];

    // Act
    const response = await consume(eventOf(...records));

    // Assess
    expect(response.batchItemFailures.map((failure) => failure.itemIdentifier)).toEqual(records.map((each) => each.messageId));
  });

  it('reports the record as failed when no processor takes its kind', async () => {
    // Prepare
    const processor = jest.fn(async () => undefined);
    const consume = createQueueConsumer('notifications', { 'dunning.email': processor });
    const unknown = record('{"kind":"sms.send","to":"+15550100"}');
    const inherited = record('{"kind":"toString"}');

    // Act
    const response = await consume(eventOf(unknown, inherited));

    // Assess
    expect(response.batchItemFailures).toEqual([{ itemIdentifier: unknown.messageId }, { itemIdentifier: inherited.messageId }]);
    expect(processor).not.toHaveBeenCalled();
  });

  it('fails only the record whose processor throws when the others succeed', async () => {
    // Prepare
    const processed: QueueMessage[] = [];
    const consume = createQueueConsumer('outbound-deliveries', {
      'webhook.deliver': async (message) => {
        if (message.endpoint === 'down') throw new Error('connect ECONNREFUSED');
        processed.push(message);
      },
    });
    const good1 = record('{"kind":"webhook.deliver","endpoint":"a"}');
    const failing = record('{"kind":"webhook.deliver","endpoint":"down"}');
    const good2 = record('{"kind":"webhook.deliver","endpoint":"b"}');

    // Act
    const response = await consume(eventOf(good1, failing, good2));

    // Assess
    expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: failing.messageId }] });
    expect(processed.map((message) => message.endpoint).sort()).toEqual(['a', 'b']);
  });

  it('passes the parsed message and its record to the processor when the kind matches', async () => {
    // Prepare
    const processor = jest.fn(async (_message: QueueMessage, _record: SQSRecord) => undefined);
    const consume = createQueueConsumer('inbound-webhooks', { 'stripe.event': processor });
    const input = record('{"kind":"stripe.event","event_id":"evt_1"}');

    // Act
    const response = await consume(eventOf(input));

    // Assess
    expect(response).toEqual({ batchItemFailures: [] });
    expect(processor).toHaveBeenCalledWith({ kind: 'stripe.event', event_id: 'evt_1' }, input);
  });

  it('throws when the event is not an SQS event', async () => {
    // Prepare
    const consume = createQueueConsumer('notifications', {});

    // Act
    const consuming = consume({ records: [] } as unknown as SQSEvent);

    // Assess
    await expect(consuming).rejects.toThrow();
  });

  it('ends an unprocessable message in the DLQ when it runs under the local queues', async () => {
    // Prepare
    const definition = queueDefinitions.find((candidate) => candidate.name === 'notifications');
    const clock = { now: 0 };
    const queues = new LocalQueues({ now: () => clock.now, consumers: { notifications: notificationsHandler } });
    queues.send('notifications', '{"kind":"not-yet-processed"}');

    // Act
    for (let pass = 0; pass <= (definition?.maxReceiveCount ?? 0); pass += 1) {
      await queues.deliverDue();
      clock.now += (definition?.visibilityTimeoutSeconds ?? 0) * 1000;
    }

    // Assess
    expect(queues.deadLetters('notifications')).toEqual([
      expect.objectContaining({ body: '{"kind":"not-yet-processed"}', receiveCount: definition?.maxReceiveCount }),
    ]);
  });
});

describe('createQueueConsumer: the last receive before the DLQ', () => {
  const maxReceives = queueDefinitions.find((definition) => definition.name === 'notifications')?.maxReceiveCount ?? 0;
  const received = (body: string, count: number): SQSRecord => {
    const base = record(body);
    return { ...base, attributes: { ...base.attributes, ApproximateReceiveCount: String(count) } };
  };
  class BrokenError extends Error {
    override name = 'BrokenError';
  }

  it('tells onLastFailure about a record that fails its last receive, with the message and the error, and still fails it', async () => {
    // Prepare
    const seen: Array<{ message: QueueMessage | undefined; id: string; error: unknown }> = [];
    const consume = createQueueConsumer(
      'notifications',
      {
        'dunning.email': () => {
          throw new BrokenError('down');
        },
      },
      {
        onLastFailure: async (message, each, error) => {
          seen.push({ message, id: each.messageId, error });
        },
      },
    );
    const earlier = received('{"kind":"dunning.email","n":1}', maxReceives - 1);
    const last = received('{"kind":"dunning.email","n":2}', maxReceives);
    const poison = received('not json', maxReceives);

    // Act
    const response = await consume(eventOf(earlier, last, poison));

    // Assess
    expect(response.batchItemFailures.map((failure) => failure.itemIdentifier)).toEqual([earlier.messageId, last.messageId, poison.messageId]);
    expect(seen).toEqual([
      { message: { kind: 'dunning.email', n: 2 }, id: last.messageId, error: expect.any(BrokenError) },
      { message: undefined, id: poison.messageId, error: expect.objectContaining({ name: 'UnprocessableMessageError' }) },
    ]);
  });

  it('does not call onLastFailure when the record succeeds on its last receive, and a failing recorder fails nothing more', async () => {
    // Prepare
    const recorder = jest.fn(async () => {
      throw new Error('table unavailable');
    });
    const consume = createQueueConsumer(
      'notifications',
      {
        'dunning.email': async () => undefined,
        'sms.send': () => {
          throw new BrokenError('down');
        },
      },
      { onLastFailure: recorder },
    );
    const ok = received('{"kind":"dunning.email"}', maxReceives);
    const failing = received('{"kind":"sms.send"}', maxReceives);

    // Act
    const response = await consume(eventOf(ok, failing));

    // Assess
    expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: failing.messageId }] });
    expect(recorder).toHaveBeenCalledTimes(1);
  });
});
