import type { CancelSessionRecord } from '#core/cancel-sessions';
import type { PaymentRecord } from '#core/payments';
import { churnedWithin } from '#services/recheck-cancel-saves';

const saved = {
  id: 'cs_saved',
  subscription_id: 'sub_1',
  outcome: 'saved_discount',
  created_at: '2026-10-01T09:00:00.000Z',
  completed_at: '2026-10-01T10:00:00.000Z',
} as CancelSessionRecord;
const session = (fields: Partial<CancelSessionRecord>) => ({ ...saved, id: 'cs_later', ...fields }) as CancelSessionRecord;
const payment = (fields: Partial<PaymentRecord>) =>
  ({ status: 'terminal', subscription_id: 'sub_1', terminal_at: '2026-10-10T00:00:00.000Z', ...fields }) as PaymentRecord;

describe('churnedWithin', () => {
  it('finds no churn without a later cancellation or a payment ended for good', () => {
    // Assess
    expect(churnedWithin(saved, [saved], [payment({ status: 'recovered', terminal_at: null })])).toBe(false);
  });

  it('counts a later session completed as cancelled within the 30 days, not one after them', () => {
    // Assess
    expect(churnedWithin(saved, [saved, session({ outcome: 'cancelled', completed_at: '2026-10-20T00:00:00.000Z' })], [])).toBe(true);
    expect(churnedWithin(saved, [session({ outcome: 'cancelled', completed_at: '2026-11-05T00:00:00.000Z' })], [])).toBe(false);
    expect(churnedWithin(saved, [session({ outcome: 'saved_pause', completed_at: '2026-10-20T00:00:00.000Z' })], [])).toBe(false);
  });

  it("counts a payment of the session's subscription that ended terminal after the save, not another subscription's or an earlier one", () => {
    // Assess
    expect(churnedWithin(saved, [], [payment({})])).toBe(true);
    expect(churnedWithin(saved, [], [payment({ subscription_id: 'sub_2' })])).toBe(false);
    expect(churnedWithin(saved, [], [payment({ terminal_at: '2026-09-30T00:00:00.000Z' })])).toBe(false);
    expect(churnedWithin({ ...saved, subscription_id: null }, [], [payment({ subscription_id: 'sub_2' })])).toBe(true);
  });
});
