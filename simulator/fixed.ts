import type { Portfolio } from './portfolio';
import { World } from './world';

/**
 * A plain fixed schedule, as a billing system's default retries run: `retries` attempts evenly
 * spaced over `days` from the failure, each payment on its own, whatever the decline said and
 * whatever else was tried on the card. Not capped: the network rules it breaks are counted by the
 * audit, not prevented. No messages are sent, so only customers who update their card by
 * themselves do.
 */
export function runFixedSchedule(portfolio: Portfolio, schedule: { readonly retries: number; readonly days: number }): World {
  const world = new World(portfolio);
  const spacingMs = (schedule.days * 86_400_000) / schedule.retries;
  // Attempts in time order across payments, as the network sees them.
  const attempts = portfolio.payments.flatMap((payment) =>
    Array.from({ length: schedule.retries }, (_, k) => ({
      payment,
      number: k + 1,
      at: new Date(payment.failedAt.getTime() + Math.round((k + 1) * spacingMs)),
    })),
  );
  attempts.sort((a, b) => a.at.getTime() - b.at.getTime() || a.payment.index - b.payment.index || a.number - b.number);
  for (const { payment, number, at } of attempts) {
    if (world.recoveries.has(payment.index)) continue;
    world.attempt(payment, number, at);
  }
  return world;
}
