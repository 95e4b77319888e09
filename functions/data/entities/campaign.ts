import { type CampaignRecord, campaignBodyOf } from '#core/campaigns/types';
import { CAMPAIGN_ENTITY, campaignKeys } from '../keys';
import { defineEntity } from './define-entity';

const bodyOf = (campaign: CampaignRecord): string => campaignBodyOf(campaign.id) as string;

/** A campaign: listed by status (GSI1). Not about a customer, so no erasure tag. */
export const campaignEntity = defineEntity<CampaignRecord>({
  name: CAMPAIGN_ENTITY.campaign,
  key: (campaign) => campaignKeys.campaign(campaign.merchant_id, bodyOf(campaign)),
  indexes: (campaign) => campaignKeys.statusIndex(campaign.merchant_id, campaign.status, bodyOf(campaign)),
});
