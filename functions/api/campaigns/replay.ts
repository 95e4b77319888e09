import { failureOf } from '#core/campaigns/failure';
import { categoriesOf, type MatchableCampaign, needsCustomer } from '#core/campaigns/matching';
import { earlierFailureCounts, type ReplayedFailure } from '#core/campaigns/simulation';
import { customersByIds, failedPaymentsSince } from '#data/campaign-repository';

/**
 * At most this many past payments are read by one overlap or simulation request (the issue's
 * bench: 10k past payments). Beyond it the answer covers the newest payments and says
 * `truncated: true`.
 */
export const REPLAY_BOUND = 10_000;

export interface Replay {
  readonly replayed: readonly ReplayedFailure[];
  readonly items_read: { readonly payments: number; readonly customers: number };
  readonly truncated: boolean;
}

/**
 * The merchant's payments failed in [since, until], each with the facts matching reads, from the
 * existing indexes: the category index when `plan` limits the categories and no campaign involved
 * needs customer facts; else the table's time-ordered payment range, plus one BatchGetItem per
 * 100 customers when a trigger or filter needs their earlier failures or lifetime value (read in
 * full so that earlier failures can be counted, simulation.ts earlierFailureCounts).
 */
export async function replayFailures(
  merchantId: string,
  plan: Pick<MatchableCampaign, 'trigger' | 'filters'>,
  others: readonly Pick<MatchableCampaign, 'trigger' | 'filters'>[],
  window: { readonly since: Date; readonly until: Date },
): Promise<Replay> {
  const customerFacts = [plan, ...others].some(needsCustomer);
  const read = await failedPaymentsSince(merchantId, {
    ...window,
    categories: customerFacts ? undefined : categoriesOf(plan),
    bound: REPLAY_BOUND,
  });
  if (!customerFacts) {
    return {
      replayed: read.payments.map((payment) => ({ payment, failure: failureOf(payment) })),
      items_read: { payments: read.items_read, customers: 0 },
      truncated: read.truncated,
    };
  }
  const customers = await customersByIds(
    merchantId,
    read.payments.map((payment) => payment.customer_id),
  );
  const facts = earlierFailureCounts(read.payments, customers);
  return {
    replayed: read.payments.map((payment) => ({ payment, failure: failureOf(payment, facts.get(payment.id)) })),
    items_read: { payments: read.items_read, customers: customers.size },
    truncated: read.truncated,
  };
}
