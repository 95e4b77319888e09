import { callbackOfSesEvent } from '#consumers/email-events';

const RECEIVED = '2026-11-25T12:00:05.000Z';
const mail = { messageId: '0100018c-abc', timestamp: '2026-11-25T11:59:00.000Z' };

describe('SES events as delivery callbacks', () => {
  it.each([
    ['Delivery', { delivery: { timestamp: '2026-11-25T12:00:00Z' } }, 'delivered', undefined],
    ['Open', { open: { timestamp: '2026-11-25T12:00:00Z' } }, 'opened', undefined],
    ['Click', { click: { timestamp: '2026-11-25T12:00:00Z', link: 'https://x' } }, 'clicked', undefined],
    ['Complaint', { complaint: { timestamp: '2026-11-25T12:00:00Z', complaintFeedbackType: 'abuse' } }, 'complained', 'complaint'],
  ])('maps %s', (eventType, extra, type, suppress) => {
    // Act
    const callback = callbackOfSesEvent('evt-1', { eventType, mail, ...extra }, RECEIVED);
    // Assess
    expect(callback).toEqual({
      source: 'ses',
      providerMessageId: '0100018c-abc',
      event: expect.objectContaining({ id: 'evt-1', type, source: 'ses', occurred_at: '2026-11-25T12:00:00.000Z', received_at: RECEIVED }),
      ...(suppress === undefined ? {} : { suppress }),
    });
  });

  it('suppresses on a permanent bounce only; a transient one is deferred', () => {
    // Act
    const permanent = callbackOfSesEvent('e1', { eventType: 'Bounce', mail, bounce: { bounceType: 'Permanent', bounceSubType: 'General' } }, RECEIVED);
    const transient = callbackOfSesEvent('e2', { eventType: 'Bounce', mail, bounce: { bounceType: 'Transient', bounceSubType: 'MailboxFull' } }, RECEIVED);
    // Assess
    expect(permanent).toMatchObject({ suppress: 'hard_bounce', event: { type: 'bounced', detail: 'Permanent/General', occurred_at: RECEIVED } });
    expect(transient).toMatchObject({ event: { type: 'deferred', detail: 'Transient/MailboxFull' } });
    expect(transient).not.toHaveProperty('suppress');
  });

  it('counts a reject as a bounce without suppressing, and ignores events it does not act on', () => {
    // Act
    const reject = callbackOfSesEvent('e3', { eventType: 'Reject', mail, reject: { reason: 'Bad content' } }, RECEIVED);
    const send = callbackOfSesEvent('e4', { eventType: 'Send', mail }, RECEIVED);
    // Assess
    expect(reject).toMatchObject({ event: { type: 'bounced', detail: 'Rejected: Bad content', occurred_at: '2026-11-25T11:59:00.000Z' } });
    expect(reject).not.toHaveProperty('suppress');
    expect(send).toBeUndefined();
  });
});
