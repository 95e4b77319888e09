import { visaResponseRule } from './card-network-rules';
import type { DeclineCodeRecord } from './types';

/**
 * The catalogue-side half of the card-network hard rules: no entry whose documented meaning is a
 * Visa category 1 or another do-not-retry code may be soft_retry. An entry is judged on the raw
 * network code its provider documents (network_code) and on the meaning its own code and
 * description state, by the phrases below.
 */
export const DO_NOT_RETRY_MEANINGS: readonly { readonly meaning: string; readonly pattern: RegExp }[] = [
  {
    meaning: 'stop payment or revoked authorisation (Visa R0, R1, R3; MAC 21)',
    pattern: /stop[ -]?payment|revo(cation|ked?)|stopped (all )?billing|payments? (to this merchant )?be stopped|cancell?ed (the|their) mandate/i,
  },
  { meaning: 'lost, stolen or pick-up card (Visa 04, 07, 41, 43)', pattern: /\blost\b|\bstolen\b|pick[ -]?up/i },
  {
    meaning: 'explicit do-not-retry (MAC 03, Stripe do_not_try_again)',
    pattern: /\bdo not (try|retry)\b|\bnot (be )?retr(ied|yable)\b|reattempt\w* (is )?not permitted|never retry/i,
  },
  { meaning: 'transaction not permitted or not allowed (Visa 12, 57)', pattern: /not permitted|not allowed|invalid transaction/i },
  { meaning: 'closed account or no such issuer (Visa 15, 46)', pattern: /\bclosed\b|no such issuer/i },
];

export interface DoNotRetryConflict {
  readonly record: DeclineCodeRecord;
  readonly meaning: string;
}

const conflictOf = (record: DeclineCodeRecord): DoNotRetryConflict | undefined => {
  if (record.network_code !== undefined) {
    const rule = visaResponseRule(record.network_code);
    if (rule && !rule.reattemptPermitted) {
      return { record, meaning: `network code ${rule.code} is Visa category ${rule.visaCategory} with no reattempt (${rule.meaning})` };
    }
  }
  const text = `${record.code.replace(/[_.-]/g, ' ')} ${record.description}`;
  const hit = DO_NOT_RETRY_MEANINGS.find(({ pattern }) => pattern.test(text));
  return hit && { record, meaning: hit.meaning };
};

/** soft_retry entries whose meaning forbids a retry; empty when the catalogue keeps the rule. */
export const findDoNotRetryConflicts = (records: readonly DeclineCodeRecord[]): DoNotRetryConflict[] =>
  records.filter((record) => record.category === 'soft_retry').flatMap((record) => conflictOf(record) ?? []);

/** Whether an entry states a do-not-retry meaning (used to test that such entries are never soft). */
export const hasDoNotRetryMeaning = (record: DeclineCodeRecord): boolean => conflictOf(record) !== undefined;
