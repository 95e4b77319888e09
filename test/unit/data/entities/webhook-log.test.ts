import { timeOrderedId } from '#core/ids';
import { EntityMismatchError } from '#data/entities/define-entity';
import { webhookEventEntity, webhookLogBodyOf, webhookLogEntity, webhookLogIdFor, webhookLogLinkEntity } from '#data/entities/webhook-log';
import type { WebhookLogRecord } from '#data/webhook-log-repository';

const body = timeOrderedId(new Date('2026-01-02T03:04:05.000Z'));
const log: WebhookLogRecord = {
  id: webhookLogIdFor(body),
  merchant_id: 'merch_1',
  psp: 'stripe',
  route_variant: 'default',
  body: '{"id":"evt_1"}',
  body_base64: false,
  content_type: 'application/json',
  url: 'https://example.test/webhooks/stripe/merch_1',
  received_at: '2026-01-02T03:04:05.000Z',
  expires_at: 1_770_000_000,
};

describe('webhookLogEntity', () => {
  it('writes a new delivery under its body, among no customer data until it names a customer, in the retention index at its expiry', () => {
    // Act
    const item = webhookLogEntity.toItem(log);
    // Assess
    expect(webhookLogBodyOf(log.id)).toBe(body);
    expect(item).toMatchObject({ PK: 'M#merch_1', SK: `WHK#${body}`, entity: 'webhook_log', expires_at: log.expires_at });
    expect(Object.keys(item).filter((name) => name.startsWith('GSI'))).toEqual(['GSI4PK', 'GSI4SK']);
    expect(item.GSI4PK).toMatch(/^RETAIN#[0-7]$/);
    expect(item.GSI4SK).toBe(`${new Date(log.expires_at * 1000).toISOString()}#merch_1#${body}`);
  });

  it("files a delivery that names its customer among that customer's data (GSI2)", () => {
    expect(webhookLogEntity.toItem({ ...log, customer_id: 'cust_1' })).toMatchObject({ GSI2PK: 'M#merch_1#C#cust_1', GSI2SK: `WHK#${body}` });
  });

  it('reads back the delivery, its expiry and customer included, without key and index attributes', () => {
    // Prepare
    const filed = { ...log, customer_id: 'cust_1' };
    // Act
    const read = webhookLogEntity.fromItem(webhookLogEntity.toItem(filed));
    // Assess
    expect(read).toEqual(filed);
  });

  it("refuses another entity's item", () => {
    expect(() =>
      webhookLogEntity.fromItem(webhookLogLinkEntity.toItem({ webhook_log_id: log.id, customer_id: 'cust_2', expires_at: 1 }, { merchant_id: 'merch_1' })),
    ).toThrow(EntityMismatchError);
  });
});

describe('webhookEventEntity', () => {
  const event = { merchant_id: 'merch_1', psp: 'stripe', identity: 'f'.repeat(64) } as const;
  const marker = { webhook_log_id: log.id, enqueued: false, expires_at: log.expires_at };

  it('writes the marker under the event, which is in its key only', () => {
    // Act
    const item = webhookEventEntity.toItem(marker, event);
    // Assess
    expect(item).toMatchObject({ PK: 'M#merch_1', SK: `WHKEVT#stripe#${event.identity}`, entity: 'webhook_event' });
    expect(Object.keys(item).sort()).toEqual(['PK', 'SK', 'enqueued', 'entity', 'expires_at', 'webhook_log_id']);
  });

  it("reads back the marker, and refuses the delivery's item", () => {
    expect(webhookEventEntity.fromItem(webhookEventEntity.toItem(marker, event))).toEqual(marker);
    expect(() => webhookEventEntity.fromItem(webhookLogEntity.toItem(log))).toThrow(EntityMismatchError);
  });
});

describe('webhookLogLinkEntity', () => {
  const link = { webhook_log_id: log.id, customer_id: 'cust_2', expires_at: log.expires_at };

  it("writes the link under the delivery and that customer, among that customer's data (GSI2), without the merchant id", () => {
    // Act
    const item = webhookLogLinkEntity.toItem(link, { merchant_id: 'merch_1' });
    // Assess
    expect(item).toMatchObject({
      PK: 'M#merch_1',
      SK: `WHKLINK#${body}#cust_2`,
      entity: 'webhook_log_link',
      GSI2PK: 'M#merch_1#C#cust_2',
      GSI2SK: `WHKLINK#${body}`,
    });
    expect(Object.keys(item).sort()).toEqual(['GSI2PK', 'GSI2SK', 'PK', 'SK', 'customer_id', 'entity', 'expires_at', 'webhook_log_id']);
  });

  it("reads back the link, and refuses the delivery's item", () => {
    expect(webhookLogLinkEntity.fromItem(webhookLogLinkEntity.toItem(link, { merchant_id: 'merch_1' }))).toEqual(link);
    expect(() => webhookLogLinkEntity.fromItem(webhookLogEntity.toItem(log))).toThrow(EntityMismatchError);
  });
});
