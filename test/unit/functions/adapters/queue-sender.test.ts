import * as sqs from '@aws-sdk/client-sqs';
import { localQueueSender, registerLocalQueueTransport, selectQueueSender, sqsQueueSender } from '#adapters/queue-sender';

type QueueSenderModule = typeof import('#adapters/queue-sender');

/**
 * The module loaded fresh with `vars` in the environment. It loads the SQS SDK on its first send,
 * after the isolated registry is gone, so it gets this file's `sqs` module, whose client class the
 * tests spy on.
 */
function loadWithEnv(vars: Record<string, string | undefined>): { sender: QueueSenderModule } {
  const previous = Object.fromEntries(Object.keys(vars).map((name) => [name, process.env[name]]));
  const assign = (values: Record<string, string | undefined>) => {
    for (const [name, value] of Object.entries(values)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
  assign(vars);
  let loaded: { sender: QueueSenderModule } | undefined;
  jest.isolateModules(() => {
    loaded = { sender: require('#adapters/queue-sender') as QueueSenderModule };
  });
  assign(previous);
  if (loaded === undefined) throw new Error('queue-sender did not load');
  return loaded;
}

describe('QueueSender', () => {
  afterEach(() => {
    registerLocalQueueTransport(undefined);
    jest.restoreAllMocks();
  });

  it('sends SendMessage to the URL named by the queue definition when the driver is sqs', async () => {
    // Prepare
    const url = 'https://sqs.eu-west-1.amazonaws.com/123456789012/notifications';
    const { sender } = loadWithEnv({ NOTIFICATION_QUEUE_URL: url, QUEUE_DRIVER: 'sqs' });
    const send = jest.spyOn(sqs.SQSClient.prototype as sqs.SQSClient, 'send').mockImplementation(async () => ({ MessageId: 'sqs-message-1', $metadata: {} }));

    // Act
    const result = await sender.queueSender.send(
      'notifications',
      { kind: 'dunning.email', payment_id: 'pay_1' },
      {
        delaySeconds: 30,
        messageAttributes: { merchant_id: 'm_1', attempt: 2 },
      },
    );

    // Assess
    expect(result).toEqual({ messageId: 'sqs-message-1' });
    const command = send.mock.calls[0]?.[0] as sqs.SendMessageCommand | undefined;
    expect(command?.input).toEqual({
      QueueUrl: url,
      MessageBody: '{"kind":"dunning.email","payment_id":"pay_1"}',
      DelaySeconds: 30,
      MessageAttributes: {
        merchant_id: { DataType: 'String', StringValue: 'm_1' },
        attempt: { DataType: 'Number', StringValue: '2' },
      },
    });
  });

  it('throws an error naming the variable when the queue URL is missing', async () => {
    // Prepare
    const { sender } = loadWithEnv({ OUTBOUND_DELIVERY_QUEUE_URL: undefined });
    const send = jest.spyOn(sqs.SQSClient.prototype as sqs.SQSClient, 'send');

    // Act
    const sending = sender.sqsQueueSender.send('outbound-deliveries', { kind: 'webhook.deliver' });

    // Assess
    await expect(sending).rejects.toThrow('Queue "outbound-deliveries" has no URL: set OUTBOUND_DELIVERY_QUEUE_URL');
    expect(send).not.toHaveBeenCalled();
  });

  it('throws a clear error when no local queues are registered', async () => {
    // Prepare
    registerLocalQueueTransport(undefined);

    // Act
    const sending = localQueueSender.send('notifications', { kind: 'dunning.email' });

    // Assess
    await expect(sending).rejects.toThrow(/No local queues are registered in this process/);
  });

  it('forwards the JSON body and options to the registered transport when the driver is local', async () => {
    // Prepare
    const calls: unknown[][] = [];
    registerLocalQueueTransport({
      send: (...args) => {
        calls.push(args);
        return 'local-1';
      },
    });

    // Act
    const result = await localQueueSender.send('inbound-webhooks', { kind: 'stripe.event', id: 'evt_1' }, { delaySeconds: 5 });

    // Assess
    expect(result).toEqual({ messageId: 'local-1' });
    expect(calls).toEqual([['inbound-webhooks', '{"kind":"stripe.event","id":"evt_1"}', { delaySeconds: 5 }]]);
  });

  it('picks the adapter that QUEUE_DRIVER names', () => {
    // Prepare
    const drivers = ['sqs', 'local'] as const;

    // Act
    const senders = drivers.map(selectQueueSender);

    // Assess
    expect(senders).toEqual([sqsQueueSender, localQueueSender]);
    const { sender } = loadWithEnv({ QUEUE_DRIVER: 'local' });
    expect(sender.queueSender).toBe(sender.localQueueSender);
  });
});
