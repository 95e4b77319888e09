import { timeOrderedId } from '#core/ids';
import { deadLetteredEventEntity, deadLetteredEventIdFor } from '#data/entities/dead-lettered-event';
import { EntityMismatchError } from '#data/entities/define-entity';
import type { DeadLetteredEvent } from '#data/dead-letter-repository';

const body = timeOrderedId(new Date('2026-01-02T03:04:05.000Z'));
const event: DeadLetteredEvent = {
  id: deadLetteredEventIdFor(body),
  merchant_id: 'merch_1',
  provider: 'stripe',
  event_ids: ['evt_1'],
  webhook_log_id: 'whk_1',
  reason: 'unknown_webhook_customer',
  dead_lettered_at: '2026-01-02T03:04:05.000Z',
};

describe('deadLetteredEventEntity', () => {
  it('writes the event under its merchant and body, with its expiry, in no index', () => {
    // Act
    const item = deadLetteredEventEntity.toItem({ ...event, expires_at: 1_770_000_000 });
    // Assess
    expect(item).toMatchObject({ PK: 'M#merch_1', SK: `DEADLETTER#${body}`, entity: 'dead_lettered_event', expires_at: 1_770_000_000 });
    expect(Object.keys(item).filter((name) => name.startsWith('GSI'))).toEqual([]);
  });

  it('reads back the event without its expiry, with the redrive marks once set', () => {
    // Prepare
    const redriven = { ...event, redriven_at: '2026-01-03T00:00:00.000Z', redrive_outcome: 'succeeded' as const };
    // Act
    const read = deadLetteredEventEntity.fromItem(deadLetteredEventEntity.toItem({ ...redriven, expires_at: 1_770_000_000 }));
    // Assess
    expect(read).toEqual(redriven);
    expect(read).not.toHaveProperty('expires_at');
  });

  it("refuses another entity's item", () => {
    expect(() => deadLetteredEventEntity.fromItem({ PK: 'M#merch_1', SK: `DEADLETTER#${body}`, entity: 'webhook_log' })).toThrow(EntityMismatchError);
  });
});
