import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import type { QueueSender } from '#adapters/queue-sender';
import { queueDefinitions } from '#contracts/queues';
import { LocalQueues, type SqsConsumer } from '#lib/local/queue-hub';

function notificationsDefinition() {
  const found = queueDefinitions.find((candidate) => candidate.name === 'notifications');
  if (found === undefined) throw new Error('queue-definitions.ts has no notifications queue');
  return found;
}

const definition = notificationsDefinition();
const visibilityMs = definition.visibilityTimeoutSeconds * 1000;

/** `queueSender` as a module loaded with QUEUE_DRIVER set to `driver`. */
function loadQueueSender(driver: 'sqs' | 'local'): QueueSender {
  let loaded: QueueSender | undefined;
  const previous = process.env.QUEUE_DRIVER;
  process.env.QUEUE_DRIVER = driver;
  jest.isolateModules(() => {
    loaded = (require('#adapters/queue-sender') as typeof import('#adapters/queue-sender')).queueSender;
  });
  if (previous === undefined) delete process.env.QUEUE_DRIVER;
  else process.env.QUEUE_DRIVER = previous;
  if (loaded === undefined) throw new Error('queue-sender did not load');
  return loaded;
}

/** A consumer that records every event and answers with `respond`. */
function recordingConsumer(respond: (event: SQSEvent) => Promise<SQSBatchResponse | void> = async () => undefined) {
  const events: SQSEvent[] = [];
  const consumer: SqsConsumer = async (event: SQSEvent, _context: Context) => {
    events.push(structuredClone(event));
    return respond(event);
  };
  return { consumer, events };
}

function setup(respond?: (event: SQSEvent) => Promise<SQSBatchResponse | void>) {
  const clock = { now: Date.UTC(2030, 0, 1, 12, 0, 0) };
  const { consumer, events } = recordingConsumer(respond);
  const queues = new LocalQueues({ now: () => clock.now, region: 'eu-west-1', consumers: { notifications: consumer } });
  return { clock, queues, events };
}

describe('LocalQueues', () => {
  it('builds a real-shaped SQS event when it delivers a message', async () => {
    // Prepare
    const { clock, queues, events } = setup();
    const sentAt = clock.now;
    const messageId = queues.send('notifications', 'derp', { messageAttributes: { timestamp: 1493147359900 } });
    clock.now += 1500;

    // Act
    const counts = await queues.deliverDue();

    // Assess
    expect(counts).toEqual({ batches: 1, delivered: 1, succeeded: 1, failed: 0, deadLettered: 0 });
    const record = events[0]?.Records[0];
    expect(record).toEqual({
      messageId,
      receiptHandle: expect.stringMatching(/^[A-Za-z0-9+/=]{40,}$/),
      body: 'derp',
      attributes: {
        ApproximateReceiveCount: '1',
        SentTimestamp: String(sentAt),
        SenderId: expect.any(String),
        ApproximateFirstReceiveTimestamp: String(sentAt + 1500),
      },
      messageAttributes: { timestamp: { stringValue: '1493147359900', stringListValues: [], binaryListValues: [], dataType: 'Number' } },
      // Digests AWS returns for this body and attribute (pinned by moto's SQS tests).
      md5OfBody: '58fd9edd83341c29f1aebba81c31e257',
      md5OfMessageAttributes: '235c5c510d26fb653d073faed50ae77c',
      eventSource: 'aws:sqs',
      eventSourceARN: 'arn:aws:sqs:eu-west-1:000000000000:notifications',
      awsRegion: 'eu-west-1',
    });
    expect(queues.depth('notifications')).toBe(0);
  });

  it('hands at most batchSize messages to one invocation when more are visible', async () => {
    // Prepare
    const { queues, events } = setup();
    const total = definition.batchSize * 2 + 3;
    for (let index = 0; index < total; index += 1) queues.send('notifications', `{"n":${index}}`);

    // Act
    const counts = await queues.deliverDue();

    // Assess
    expect(events.map((event) => event.Records.length)).toEqual([definition.batchSize, definition.batchSize, 3]);
    expect(counts).toMatchObject({ batches: 3, delivered: total, succeeded: total });
    expect(events.flatMap((event) => event.Records.map((record) => record.body))[total - 1]).toBe(`{"n":${total - 1}}`);
  });

  it('keeps only the named items when the consumer reports a partial batch failure', async () => {
    // Prepare
    const { clock, queues, events } = setup(async (event) => ({ batchItemFailures: [{ itemIdentifier: event.Records[1]?.messageId ?? '' }] }));
    queues.send('notifications', 'a');
    const failing = queues.send('notifications', 'b');
    queues.send('notifications', 'c');

    // Act
    const first = await queues.deliverDue();
    clock.now += visibilityMs;
    await queues.deliverDue();

    // Assess
    expect(first).toMatchObject({ delivered: 3, succeeded: 2, failed: 1 });
    expect(events[1]?.Records.map((record) => [record.messageId, record.attributes.ApproximateReceiveCount])).toEqual([[failing, '2']]);
  });

  it('fails the whole batch when the consumer throws', async () => {
    // Prepare
    const { clock, queues, events } = setup(async () => {
      throw new Error('database unavailable');
    });
    queues.send('notifications', 'a');
    queues.send('notifications', 'b');

    // Act
    const counts = await queues.deliverDue();

    // Assess
    expect(counts).toMatchObject({ delivered: 2, succeeded: 0, failed: 2 });
    expect(queues.inFlight('notifications')).toBe(2);
    clock.now += visibilityMs;
    await queues.deliverDue();
    expect(events[1]?.Records.map((record) => record.body)).toEqual(['a', 'b']);
  });

  it('fails the whole batch when an itemIdentifier is not a messageId of the batch', async () => {
    // Prepare
    const { queues } = setup(async () => ({ batchItemFailures: [{ itemIdentifier: 'not-in-this-batch' }] }));
    queues.send('notifications', 'a');
    queues.send('notifications', 'b');

    // Act
    const counts = await queues.deliverDue();

    // Assess
    expect(counts).toMatchObject({ succeeded: 0, failed: 2 });
    expect(queues.inFlight('notifications')).toBe(2);
  });

  it('deletes every message when the consumer returns an empty batchItemFailures list', async () => {
    // Prepare
    const { queues } = setup(async () => ({ batchItemFailures: [] }));
    queues.send('notifications', 'a');

    // Act
    const counts = await queues.deliverDue();

    // Assess
    expect(counts).toMatchObject({ succeeded: 1, failed: 0 });
    expect(queues.depth('notifications') + queues.inFlight('notifications')).toBe(0);
  });

  it('redelivers a failed message only when its visibility timeout has run out', async () => {
    // Prepare
    const { clock, queues, events } = setup(async (event) => ({ batchItemFailures: event.Records.map((record) => ({ itemIdentifier: record.messageId })) }));
    queues.send('notifications', 'a');
    await queues.deliverDue();

    // Act
    clock.now += visibilityMs - 1;
    const early = await queues.deliverDue();
    clock.now += 1;
    const due = await queues.deliverDue();

    // Assess
    expect(early.delivered).toBe(0);
    expect(due.delivered).toBe(1);
    expect(events).toHaveLength(2);
  });

  it('moves a message to the DLQ when it has been received maxReceiveCount times without success', async () => {
    // Prepare
    const { clock, queues, events } = setup(async () => {
      throw new Error('always fails');
    });
    queues.send('notifications', '{"kind":"poison"}');

    // Act
    for (let receive = 0; receive <= definition.maxReceiveCount; receive += 1) {
      await queues.deliverDue();
      clock.now += visibilityMs;
    }

    // Assess
    expect(events).toHaveLength(definition.maxReceiveCount);
    expect(queues.deadLetters('notifications')).toEqual([expect.objectContaining({ body: '{"kind":"poison"}', receiveCount: definition.maxReceiveCount })]);
    expect(queues.depth('notifications') + queues.inFlight('notifications')).toBe(0);
  });

  it('holds a message back until its delaySeconds have passed', async () => {
    // Prepare
    const { clock, queues, events } = setup();
    queues.send('notifications', 'later', { delaySeconds: 30 });

    // Act
    clock.now += 29_999;
    const early = await queues.deliverDue();
    const depthWhileDelayed = queues.depth('notifications');
    clock.now += 1;
    const due = await queues.deliverDue();

    // Assess
    expect(early.delivered).toBe(0);
    expect(depthWhileDelayed).toBe(1);
    expect(due.delivered).toBe(1);
    expect(events[0]?.Records[0]?.body).toBe('later');
  });

  it('shows the messages waiting (visible or delayed) with when each becomes visible, without receiving them', async () => {
    // Prepare
    const { clock, queues, events } = setup();
    const start = clock.now;
    const now = queues.send('notifications', 'now');
    const later = queues.send('notifications', 'later', { delaySeconds: 300 });

    // Act
    const before = queues.waiting('notifications');
    await queues.deliverDue();
    const after = queues.waiting('notifications');

    // Assess
    expect(before).toEqual([
      { messageId: now, body: 'now', visibleAt: start },
      { messageId: later, body: 'later', visibleAt: start + 300_000 },
    ]);
    expect(events.map((event) => event.Records.map((record) => record.body))).toEqual([['now']]);
    expect(after).toEqual([{ messageId: later, body: 'later', visibleAt: start + 300_000 }]);
  });

  it('rejects a send when SQS would refuse it', () => {
    // Prepare
    const { queues } = setup();

    // Act
    const tooLate = () => queues.send('notifications', 'x', { delaySeconds: 901 });
    const controlCharacter = () => queues.send('notifications', 'a\u0000b');
    const tooLarge = () => queues.send('notifications', 'x'.repeat(262_145));

    // Assess
    expect(tooLate).toThrow(/DelaySeconds must be an integer from 0 to 900/);
    expect(controlCharacter).toThrow(/character SQS refuses/);
    expect(tooLarge).toThrow(/at most 262144 bytes/);
    expect(queues.depth('notifications')).toBe(0);
  });

  it('delivers messages its consumer sends while it drains', async () => {
    // Prepare
    const clock = { now: 0 };
    const bodies: string[] = [];
    const queues = new LocalQueues({ now: () => clock.now });
    queues.registerConsumer('inbound-webhooks', async (event) => {
      for (const record of event.Records) queues.send('notifications', `from ${record.body}`);
    });
    queues.registerConsumer('notifications', async (event) => {
      bodies.push(...event.Records.map((record) => record.body));
    });
    queues.send('inbound-webhooks', 'webhook-1');

    // Act
    const counts = await queues.drain();

    // Assess
    expect(bodies).toEqual(['from webhook-1']);
    expect(counts).toMatchObject({ delivered: 2, succeeded: 2 });
  });

  it('delivers on its own and waits for in-flight batches when it is started and stopped', async () => {
    // Prepare
    let release: () => void = () => undefined;
    const received: string[] = [];
    let finished = false;
    const queues = new LocalQueues({
      consumers: {
        notifications: async (event) => {
          received.push(...event.Records.map((record) => record.body));
          await new Promise<void>((resolve) => {
            release = resolve;
          });
          finished = true;
        },
      },
    });
    queues.send('notifications', 'tick');
    queues.start(5);
    while (received.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));

    // Act
    const stopped = queues.stop();
    setTimeout(() => release(), 20);
    await stopped;

    // Assess
    expect(received).toEqual(['tick']);
    expect(finished).toBe(true);
    expect(queues.depth('notifications') + queues.inFlight('notifications')).toBe(0);
  });

  it('round-trips a message through queueSender when QUEUE_DRIVER is local', async () => {
    // Prepare
    const { queues, events } = setup();
    const sender = loadQueueSender('local');

    // Act
    const { messageId } = await sender.send('notifications', { kind: 'dunning.email', payment_id: 'pay_1' }, { messageAttributes: { merchant_id: 'm_1' } });
    await queues.deliverDue();

    // Assess
    const record = events[0]?.Records[0];
    expect(record?.messageId).toBe(messageId);
    expect(JSON.parse(record?.body ?? 'null')).toEqual({ kind: 'dunning.email', payment_id: 'pay_1' });
    expect(record?.messageAttributes.merchant_id).toMatchObject({ stringValue: 'm_1', dataType: 'String' });
  });
});
