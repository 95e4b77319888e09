import { campaignBodyOf } from '#core/campaigns/types';
import type { AbTestRecord } from '#core/experiments/ab-test';
import { AB_TEST_ENTITY, abTestKeys } from '../keys';
import { defineEntity } from './define-entity';

/** The campaign body an A/B test is filed under (its campaign_id was checked to be a `camp_` id at creation). */
export const abTestCampaignBodyOf = (test: Pick<AbTestRecord, 'campaign_id'>): string => campaignBodyOf(test.campaign_id) as string;

/** An email A/B test, filed under its campaign. Not about a customer, so no erasure tag; no index. */
export const abTestEntity = defineEntity<AbTestRecord>({
  name: AB_TEST_ENTITY.abTest,
  key: (test) => abTestKeys.test(test.merchant_id, abTestCampaignBodyOf(test)),
});
