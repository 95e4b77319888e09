/**
 * The merchant's automatic sending pause (DESIGN §2c "Messaging"): email reputation is judged on
 * the last {@link SENDING_WINDOW_DAYS} days of the merchant's own sends. Past either threshold,
 * new sends are held until an operator lifts the pause. The thresholds sit below SES's own review
 * lines (5% bounces, 0.1% complaints), so a merchant is stopped before the service's sending
 * account is put under review. No rate is judged before {@link MIN_SENDS_TO_JUDGE} sends: three
 * bounces out of fifty says little.
 */
export const SENDING_WINDOW_DAYS = 30;
export const MAX_BOUNCE_RATE = 0.025;
export const MAX_COMPLAINT_RATE = 0.0008;
export const MIN_SENDS_TO_JUDGE = 200;

export interface SendingCounts {
  readonly sent: number;
  readonly bounced: number;
  readonly complained: number;
}

export interface SendingPause {
  readonly merchant_id: string;
  /** Why, in words, with the rates that tripped it. */
  readonly reason: string;
  readonly bounce_rate: number;
  readonly complaint_rate: number;
  readonly counts: SendingCounts;
  /** When sending was paused. */
  readonly since: string;
}

/** Why sending must pause with these counts, or undefined when it may go on. */
export function pauseReason(counts: SendingCounts): string | undefined {
  if (counts.sent < MIN_SENDS_TO_JUDGE) return undefined;
  const bounceRate = counts.bounced / counts.sent;
  const complaintRate = counts.complained / counts.sent;
  const percent = (rate: number): string => `${(rate * 100).toFixed(2)}%`;
  if (bounceRate > MAX_BOUNCE_RATE)
    return `bounce rate ${percent(bounceRate)} over the last ${SENDING_WINDOW_DAYS} days (${counts.bounced} of ${counts.sent} emails) is above ${percent(MAX_BOUNCE_RATE)}`;
  if (complaintRate > MAX_COMPLAINT_RATE)
    return `complaint rate ${percent(complaintRate)} over the last ${SENDING_WINDOW_DAYS} days (${counts.complained} of ${counts.sent} emails) is above ${percent(MAX_COMPLAINT_RATE)}`;
  return undefined;
}

/** The UTC days (`YYYY-MM-DD`) of the window ending at `now`, newest first. */
export function windowDays(now: Date, days = SENDING_WINDOW_DAYS): string[] {
  const out: string[] = [];
  for (let i = 0; i < days; i += 1) out.push(new Date(now.getTime() - i * 86_400_000).toISOString().slice(0, 10));
  return out;
}
