import type { AbArm } from '#core/experiments/assign';
import type { MessageRecord } from '#core/messages';
import { recordAbTestEvent } from '#data/ab-test-repository';
import { incrementCampaignStats } from '#data/campaign-repository';
import { logger } from '#shared/logger';

const armOf = (variant: string | null | undefined): AbArm | undefined => (variant === 'A' || variant === 'B' ? variant : undefined);

/**
 * Counters are bookkeeping after the fact: the message is already sent (or clicked), so a counter
 * that cannot be written is logged, never a reason to fail the delivery and have it redelivered.
 */
async function bestEffort(what: string, message: MessageRecord, write: () => Promise<unknown>): Promise<void> {
  try {
    await write();
  } catch (error) {
    logger.warn(`campaign counter not updated: ${what}`, { merchant_id: message.merchant_id, message_id: message.id, campaign_id: message.campaign_id, error });
  }
}

/**
 * A campaign message was sent: its campaign counts it (`stats.messages_sent`) and, when it carried
 * an A/B arm, the campaign's test counts a send for that arm. Counters only (ADD, no read); other
 * messages change nothing.
 */
export async function countCampaignMessageSent(message: MessageRecord): Promise<void> {
  const campaignId = message.campaign_id;
  if (message.purpose !== 'campaign' || !campaignId) return;
  const arm = armOf(message.variant);
  await Promise.all([
    bestEffort('messages_sent', message, () => incrementCampaignStats(message.merchant_id, campaignId, { messages_sent: 1 })),
    arm === undefined ? undefined : bestEffort('A/B sent', message, () => recordAbTestEvent(message.merchant_id, campaignId, arm, 'sent')),
  ]);
}

/** A campaign message carrying an A/B arm was clicked for the first time: the test counts a click for that arm (its `click` metric). */
export async function countCampaignMessageClicked(message: MessageRecord): Promise<void> {
  const arm = armOf(message.variant);
  const campaignId = message.campaign_id;
  if (message.purpose !== 'campaign' || !campaignId || arm === undefined) return;
  await bestEffort('A/B clicked', message, () => recordAbTestEvent(message.merchant_id, campaignId, arm, 'clicked'));
}
