import { filtersJsonOf, parseCampaignFilters } from '#core/campaigns/filters';
import { campaignMatches, compareForEnrollment, type MatchableCampaign } from '#core/campaigns/matching';
import { canonicalTrigger, triggerRuleOf, triggerTypeOf } from '#core/campaigns/triggers';
import { getActiveCampaignIndex, getCampaign } from '#data/campaign-repository';
import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { replayFailures } from './replay';
import { checkCampaignOverlapSchemas } from './schemas';

const OVERLAP_DAYS = 30;
const DAY_MS = 86_400_000;

/**
 * POST /api/v1/campaigns/overlap: the merchant's active campaigns (but `exclude_campaign_id`)
 * that would also enroll payments this trigger and filters match, each with how many of the
 * merchant's payments failed in the last 30 days both match, and which of the two would enroll
 * them by the specificity rule once this one is active (ties go to the one activated first, the
 * existing one). Served from the active-campaign index (one GetItem) and the payment indexes
 * (replay.ts, bounded). Triggers that enroll nothing on failure (card_expiring, pre_dunning,
 * manual) overlap with active campaigns of the same trigger, with no payment count.
 */
export const checkCampaignOverlap = defineOperation({ auth: 'api_key', schemas: checkCampaignOverlapSchemas }, async ({ body, principal, requestId }) => {
  const merchantId = principal.merchantId;
  const trigger = canonicalTrigger(body.trigger);
  const filters = body.filters_json === undefined ? {} : parseCampaignFilters(body.filters_json);
  const now = new Date();
  const since = new Date(now.getTime() - OVERLAP_DAYS * DAY_MS);
  const plan: MatchableCampaign = { id: '~this', trigger, filters, activated_at: null };
  const candidates = (await getActiveCampaignIndex(merchantId)).campaigns.filter((entry) => entry.id !== body.exclude_campaign_id);

  let matching = 0;
  let itemsRead = 0;
  let truncated = false;
  const counts = new Map<string, number>();
  if (triggerRuleOf(trigger).enrollsOnFailure) {
    const replay = await replayFailures(merchantId, plan, candidates, { since, until: now });
    itemsRead = replay.items_read.payments + replay.items_read.customers;
    truncated = replay.truncated;
    for (const { failure } of replay.replayed) {
      if (!campaignMatches(plan, failure)) continue;
      matching += 1;
      for (const candidate of candidates) if (campaignMatches(candidate, failure)) counts.set(candidate.id, (counts.get(candidate.id) ?? 0) + 1);
    }
  } else {
    for (const candidate of candidates) if (candidate.trigger === trigger) counts.set(candidate.id, 0);
  }
  const overlapping = candidates.filter((candidate) => counts.has(candidate.id));
  const records = await Promise.all(overlapping.map((candidate) => getCampaign(merchantId, candidate.id)));
  const overlaps = overlapping.map((candidate, i) => ({
    campaign_id: candidate.id,
    name: records[i]?.name ?? '',
    trigger: candidate.trigger,
    trigger_type: triggerTypeOf(candidate.trigger),
    overlapping_payments: counts.get(candidate.id) ?? 0,
    enrolls_overlap_in: compareForEnrollment(plan, candidate) < 0 ? ('this_campaign' as const) : ('existing_campaign' as const),
  }));
  const data = {
    trigger,
    trigger_type: triggerTypeOf(trigger),
    filters: JSON.parse(filtersJsonOf(filters)),
    lookback_days: OVERLAP_DAYS,
    window_start: since.toISOString(),
    matching_payments: matching,
    has_overlap: overlaps.length > 0,
    overlaps,
    items_read: itemsRead + 1 + records.length,
    truncated,
  };
  return { body: envelope(data, requestId, merchantId) };
});
