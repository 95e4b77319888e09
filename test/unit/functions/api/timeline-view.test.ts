import { type TimelineForm, timelineEventView } from '#api/payments/views';
import type { TimelineEntry } from '#data/payment-queries';

const entry = (type: string, details: Record<string, unknown> = {}): TimelineEntry => ({
  type,
  timestamp: '2026-10-01T00:00:00.000Z',
  detail: `${type} happened`,
  details,
});

describe('timelineEventView', () => {
  it.each<[string, Record<string, unknown>, TimelineForm, string]>([
    // A payment's timeline (A: payment_failed, retry; B: payment_failed, retry_scheduled, retry_succeeded).
    ['payment_failed', {}, 'payment', 'payment_failed'],
    ['retry_scheduled', { retry_number: 1 }, 'payment', 'retry_scheduled'],
    ['retry_attempted', { retry_number: 1 }, 'payment', 'retry'],
    ['retry_failed', { retry_number: 1 }, 'payment', 'retry'],
    ['retry_gateway_error', { retry_number: 1 }, 'payment', 'retry'],
    ['retry_succeeded', { retry_number: 2 }, 'payment', 'retry_succeeded'],
    ['retry_succeeded', { to: 'recovered' }, 'payment', 'retry_succeeded'],
    ['status_change', { to: 'paused' }, 'payment', 'status_change'],
    // An invoice's timeline (A: status_change, retry).
    ['payment_failed', {}, 'invoice', 'payment_failed'],
    ['retry_scheduled', { retry_number: 1 }, 'invoice', 'retry'],
    ['retry_attempted', { retry_number: 1 }, 'invoice', 'retry'],
    ['retry_failed', { retry_number: 1 }, 'invoice', 'retry'],
    ['retry_succeeded', { retry_number: 2 }, 'invoice', 'retry'],
    ['retry_succeeded', { to: 'recovered' }, 'invoice', 'status_change'],
    ['status_change', { to: 'terminal' }, 'invoice', 'status_change'],
    // No word in the spec: the recorded type stays.
    ['dunning_sent', {}, 'invoice', 'dunning_sent'],
    ['charge_refunded', {}, 'payment', 'charge_refunded'],
    ['payment_method_updated', {}, 'payment', 'payment_method_updated'],
  ])('answers a recorded %s (%j) on the %s timeline as %s, naming a recorded type it coarsens in details.kind', (type, details, form, expected) => {
    // Act
    const view = timelineEventView(entry(type, details), form);
    // Assess
    expect(view).toEqual({
      type: expected,
      timestamp: '2026-10-01T00:00:00.000Z',
      detail: `${type} happened`,
      details: expected === type ? details : { ...details, kind: type },
    });
  });
});
