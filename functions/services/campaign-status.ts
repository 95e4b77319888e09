import type { CampaignAction } from '#core/campaigns/lifecycle';
import type { CampaignRecord } from '#core/campaigns/types';
import { changeCampaignStatus } from '#data/campaign-repository';
import type { TransactItem } from '#data/customer-repository';
import { outboundEventItem } from '#data/outbound-event-repository';

/** What a campaign event's `data.object` says of the campaign. */
const campaignObject = (before: CampaignRecord, after: CampaignRecord) => ({
  campaign_id: after.id,
  name: after.name,
  status: after.status,
  previous_status: before.status,
  trigger: after.trigger,
});

/**
 * The outbound event of a campaign's status change, for its own transaction: `campaign.activated`
 * and `campaign.paused` (A's and B's name), the merchant's (customer null: no erasure removes it).
 * Archiving and completing have no event name in the spec or DESIGN §1, so they record none.
 */
function eventOf(action: Exclude<CampaignAction, 'update'>, now: Date) {
  return (before: CampaignRecord, after: CampaignRecord): TransactItem[] => {
    if (action === 'activate')
      return [outboundEventItem(after.merchant_id, null, ['campaign.activated'], { ...campaignObject(before, after), activated_at: after.activated_at }, now)];
    if (action === 'pause')
      return [outboundEventItem(after.merchant_id, null, ['campaign.paused'], { ...campaignObject(before, after), paused_at: after.paused_at }, now)];
    return [];
  };
}

/**
 * A campaign's status action (activate, pause, archive, complete) with its outbound event, in one
 * transaction guarded by the status and version read (campaign-repository changeCampaignStatus):
 * a refused action (409) or an unknown campaign (404) writes, and records, nothing.
 *
 * @example const campaign = await setCampaignStatus('merch_1', 'camp_01J…', 'activate');
 */
export function setCampaignStatus(
  merchantId: string,
  campaignId: string,
  action: Exclude<CampaignAction, 'update'>,
  now: Date = new Date(),
): Promise<CampaignRecord> {
  return changeCampaignStatus(merchantId, campaignId, action, now, eventOf(action, now));
}
