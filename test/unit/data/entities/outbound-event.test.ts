import { timeOrderedId } from '#core/ids';
import { EntityMismatchError } from '#data/entities/define-entity';
import { outboundEventEntity, outboundEventIdFor } from '#data/entities/outbound-event';
import type { OutboundEvent } from '#data/outbound-event-repository';

const body = timeOrderedId(new Date('2026-01-02T03:04:05.000Z'));
const event: OutboundEvent = {
  id: outboundEventIdFor(body),
  types: ['payment.recovered', 'recovery.succeeded'],
  created_at: '2026-01-02T03:04:05.000Z',
  merchant_id: 'merch_1',
  data: { object: { id: 'pe_1' } },
};

describe('outboundEventEntity', () => {
  it("writes the event under its merchant and body, among the customer's data (GSI2), without naming the customer", () => {
    // Act
    const item = outboundEventEntity.toItem({ ...event, expires_at: 1_770_000_000 }, { customer_id: 'cust_1' });
    // Assess
    expect(item).toMatchObject({ PK: 'M#merch_1', SK: `EVT#${body}`, entity: 'outbound_event', GSI2PK: 'M#merch_1#C#cust_1', GSI2SK: `EVT#${body}` });
    // The retention index (the daily retention-cleanup), at its expiry.
    expect(item.GSI4SK).toBe(`${new Date(1_770_000_000 * 1000).toISOString()}#merch_1#${body}`);
    expect(Object.keys(item).sort()).toEqual([
      'GSI1PK',
      'GSI1SK',
      'GSI2PK',
      'GSI2SK',
      'GSI3PK',
      'GSI3SK',
      'GSI4PK',
      'GSI4SK',
      'PK',
      'SK',
      'created_at',
      'data',
      'entity',
      'expires_at',
      'id',
      'merchant_id',
      'types',
    ]);
  });

  it('files the event in the per-type index once per name: its first in GSI1, its second in GSI3, by body', () => {
    // Act
    const both = outboundEventEntity.toItem({ ...event, expires_at: 1_770_000_000 }, { customer_id: 'cust_1' });
    const one = outboundEventEntity.toItem({ ...event, types: ['recovery.retry_attempted'], expires_at: 1_770_000_000 }, { customer_id: 'cust_1' });
    // Assess
    expect(both).toMatchObject({
      GSI1PK: 'M#merch_1#EVTTYPE#payment.recovered',
      GSI1SK: body,
      GSI3PK: 'M#merch_1#EVTTYPE#recovery.succeeded',
      GSI3SK: body,
    });
    expect(one).toMatchObject({ GSI1PK: 'M#merch_1#EVTTYPE#recovery.retry_attempted', GSI1SK: body });
    expect(one).not.toHaveProperty('GSI3PK');
  });

  it('reads back the event without its expiry', () => {
    expect(outboundEventEntity.fromItem(outboundEventEntity.toItem({ ...event, expires_at: 1_770_000_000 }, { customer_id: 'cust_1' }))).toEqual(event);
  });

  it("refuses another entity's item", () => {
    expect(() => outboundEventEntity.fromItem({ PK: 'M#merch_1', SK: `EVT#${body}`, entity: 'payment' })).toThrow(EntityMismatchError);
  });
});
