/**
 * Every number the recovery simulator assumes, in one place (docs/simulator.md explains each and
 * its source). Change them here, never in the code that reads them. Figures from public sources
 * are marked with the source; the rest are stated assumptions, chosen before any strategy was
 * run and not tuned to favour one.
 */

/** The kinds of first decline the portfolio draws, with the codes a gateway would return. */
export const DECLINE_KINDS = ['insufficient_funds', 'generic', 'limit', 'processing', 'expired', 'do_not_retry'] as const;
export type DeclineKind = (typeof DECLINE_KINDS)[number];
export const NETWORKS = ['visa', 'mastercard', 'other'] as const;
export type Network = (typeof NETWORKS)[number];

export const PARAMETERS = {
  /** The first failure of the portfolio happens at this instant (a Monday). */
  start: '2026-01-05T00:00:00.000Z',
  /** Failures are spread evenly over this many days from `start`. */
  failureWindowDays: 14,
  /** Each payment is followed for this many days after its failure (every strategy's window fits). */
  followDays: 30,

  /**
   * Share of card failures by kind. Soft (retryable) declines 82 %: 2Checkout and Cardstream put
   * soft declines at 80-90 % (about 85 %) of declines. Insufficient funds is the largest share
   * (Recurly 2024 and Stripe 2024 figures as compiled by dunningcompare.com: 38 %; Slicker cites
   * 57 %); expired or cancelled cards about a quarter of subscription failures in the same
   * compilation (we keep 10 % expired, 8 % do-not-retry answers, within the 10-20 % hard share).
   */
  declineMix: {
    insufficient_funds: 0.42,
    generic: 0.2,
    limit: 0.08,
    processing: 0.12,
    expired: 0.1,
    do_not_retry: 0.08,
  } satisfies Record<DeclineKind, number>,

  /** Card networks (approximate US card purchase-volume shares, Nilson Report: Visa > 50 %, Mastercard about a quarter to a third). */
  networkMix: { visa: 0.55, mastercard: 0.33, other: 0.12 } satisfies Record<Network, number>,

  /** Where customers live: their time zone and the currency they pay in. */
  regions: [
    { weight: 0.28, timezone: 'America/New_York', currency: 'usd' },
    { weight: 0.14, timezone: 'America/Chicago', currency: 'usd' },
    { weight: 0.13, timezone: 'America/Los_Angeles', currency: 'usd' },
    { weight: 0.07, timezone: 'America/Toronto', currency: 'cad' },
    { weight: 0.12, timezone: 'Europe/London', currency: 'gbp' },
    { weight: 0.16, timezone: 'Europe/Berlin', currency: 'eur' },
    { weight: 0.05, timezone: 'Asia/Tokyo', currency: 'jpy' },
    { weight: 0.05, timezone: 'Australia/Sydney', currency: 'aud' },
  ],
  /** Monthly plan prices in major units (jpy has no minor unit), by weight. */
  prices: {
    default: [
      { weight: 0.2, value: 9 },
      { weight: 0.25, value: 19 },
      { weight: 0.25, value: 29 },
      { weight: 0.15, value: 49 },
      { weight: 0.1, value: 99 },
      { weight: 0.05, value: 299 },
    ],
    jpy: [
      { weight: 0.3, value: 1_000 },
      { weight: 0.3, value: 3_000 },
      { weight: 0.25, value: 5_000 },
      { weight: 0.15, value: 12_000 },
    ],
  },
  /**
   * Fixed conversion rates to USD (USD per one major unit), used only for the single summary
   * figure and the chart: amounts are reported per currency, never summed as they are.
   */
  usdPerUnit: { usd: 1, eur: 1.08, gbp: 1.27, cad: 0.73, aud: 0.66, jpy: 0.0067 } as Readonly<Record<string, number>>,
  /** Payments per customer: a customer has this many failed payments on average (several subscriptions). */
  paymentsPerCustomer: 1.4,
  /** Cards on file per customer, by weight; each failed payment is on one of them. */
  cardsPerCustomer: [
    { weight: 0.6, value: 1 },
    { weight: 0.3, value: 2 },
    { weight: 0.1, value: 3 },
  ],

  /**
   * The recovery curves: P(an attempt succeeds) = base × decay^(attempt-1) × wait factor × payday
   * factor × local-hour factor × weekday factor, capped at `maxProbability`. `waitRamp` is the wait
   * (hours since the failure) below which the chance is scaled by `earlyFactor`: a balance or a
   * daily limit does not change within minutes. `payday`: the kind reacts to money arriving.
   * Sources for the shapes: Stripe (Smart Retries use time since failure, local time and the
   * day; most NSF recoveries follow paydays), Recurly (48 h first-retry window for insufficient
   * funds, 48-65 % eventual recovery with retries), finsi.ai (issuer-unavailable declines clear
   * on the next try; limits reset the next day). The magnitudes are assumptions.
   */
  curves: {
    insufficient_funds: { base: 0.16, decay: 0.88, waitRampHours: 24, earlyFactor: 0.35, payday: true },
    generic: { base: 0.13, decay: 0.75, waitRampHours: 4, earlyFactor: 0.5, payday: false },
    limit: { base: 0.3, decay: 0.8, waitRampHours: 24, earlyFactor: 0.15, payday: true },
    processing: { base: 0.65, decay: 0.6, waitRampHours: 0, earlyFactor: 1, payday: false },
    /** Retrying an expired card or after a do-not-retry answer never succeeds; only a new card does. */
    expired: { base: 0, decay: 1, waitRampHours: 0, earlyFactor: 1, payday: false },
    do_not_retry: { base: 0, decay: 1, waitRampHours: 0, earlyFactor: 1, payday: false },
  } satisfies Record<DeclineKind, { base: number; decay: number; waitRampHours: number; earlyFactor: number; payday: boolean }>,
  /** Payday: the 1st, the 15th and the last day of the month (as the policy assumes). On the payday and the day after, ×sinceFactor; in the two days before one, ×beforeFactor. */
  payday: { sinceDays: 1, sinceFactor: 1.8, beforeDays: 2, beforeFactor: 0.75 },
  /** By the customer's local hour (0-23): [fromHour, toHour, factor]; the first range that holds wins. */
  localHour: [
    [0, 6, 0.8],
    [6, 10, 1.15],
    [10, 18, 1],
    [18, 24, 0.9],
  ] as readonly (readonly [number, number, number])[],
  /** By the customer's local weekday (0 Sunday - 6 Saturday). */
  weekday: [0.85, 1.05, 1, 1, 1, 1, 0.9] as readonly number[],
  maxProbability: 0.95,
  /** A new card (after a card update) succeeds with this chance on each attempt. */
  newCardSuccess: 0.85,
  /** On a failed retry of a soft decline, the chance the issuer answers do-not-retry instead (the account was closed meanwhile). */
  closedAccountPerAttempt: 0.01,

  /**
   * Customers give a new card by themselves (the provider's card page, the account updater) with
   * this chance, after an exponential delay of this mean (Chargebee: ~72 h between a new card's
   * issue and its update).
   */
  spontaneousCardUpdate: {
    chance: { insufficient_funds: 0.04, generic: 0.06, limit: 0.03, processing: 0.01, expired: 0.3, do_not_retry: 0.15 } satisfies Record<DeclineKind, number>,
    meanDelayHours: 96,
  },
  /**
   * A campaign message a customer receives: the chance they give a new card because of it, and
   * the mean delay. For a soft decline the message also raises the chance of the next attempts
   * within `nudgeHours` by `nudgeFactor` (the customer moves money). ProfitWell/Chargebee report
   * dunning emails adding about a third to retries' recoveries; these are assumptions within it.
   */
  messageResponse: {
    cardUpdateChance: { email: 0.06, sms: 0.1, whatsapp: 0.1 } as Readonly<Record<string, number>>,
    meanDelayHours: 18,
    nudgeHours: 96,
    nudgeFactor: 1.25,
  },

  /** The fixed schedules: retries evenly spaced over the window, from the failure. */
  fixedSchedules: {
    fixed_8_in_14: { retries: 8, days: 14, source: 'Stripe: "8 tries within 2 weeks" (recommended Smart Retries default)' },
    fixed_4_in_21: { retries: 4, days: 21, source: "Stripe's earlier default schedule: 4 tries within 3 weeks" },
  },

  /**
   * Network fees in USD cents per violating attempt (reference/card-network-rules.md §3):
   * Visa excessive reattempt $0.10 domestic (payway.com, bill1st), charged also for a reattempt
   * after a category 1 answer; Mastercard retry after MAC 03/21 about $0.03 (Maast/Qualpay);
   * Mastercard excessive attempts above 35 in 30 days $0.50 from 1 Jan 2025 (Braintree). For
   * Mastercard's 10 per 24 h no current fee is published; we charge the excessive-attempt $0.50.
   */
  feesUsdCents: {
    visa_excessive_reattempts: 10,
    visa_category_1_reattempt: 10,
    mastercard_mac_03_21_retry: 3,
    mastercard_10_per_24h: 50,
    mastercard_35_per_30d: 50,
  },
} as const;

export type StrategyName = 'fixed_8_in_14' | 'fixed_4_in_21' | 'policy' | 'policy_with_campaigns';
export const STRATEGY_NAMES: readonly StrategyName[] = ['fixed_8_in_14', 'fixed_4_in_21', 'policy', 'policy_with_campaigns'];
