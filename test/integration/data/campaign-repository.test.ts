import { newCampaign } from '#core/campaigns/lifecycle';
import { dynamo } from '#data/client';
import {
  changeCampaignStatus,
  createCampaign,
  customersByIds,
  failedPaymentsSince,
  getActiveCampaignIndex,
  getCampaign,
  incrementCampaignStats,
  updateCampaignFields,
} from '#data/campaign-repository';
import { createMerchant } from '#data/merchant-repository';
import { HARD_DECLINE, seedPayment } from '#test/fixtures/payments';

const DAY = 86_400_000;
const daysAgo = (days: number): Date => new Date(Date.now() - days * DAY);

afterAll(() => dynamo.destroy());

describe('campaign repository', () => {
  const draft = (merchantId: string) =>
    newCampaign(
      merchantId,
      { name: 'Soft', trigger: 'soft_decline', filters: { psp: ['stripe'] }, steps: [{ action: 'retry', delay_hours: 24, template_id: null }] },
      new Date(),
    );

  it('keeps the stats the engine adds with ADD across updates and status changes', async () => {
    // Prepare
    const merchant = await createMerchant({ name: 'Counting' });
    const campaign = await createCampaign(draft(merchant.id));
    // Act
    await incrementCampaignStats(merchant.id, campaign.id, { enrolled: 2, active: 2 });
    await updateCampaignFields(merchant.id, campaign.id, { name: 'Renamed' });
    await changeCampaignStatus(merchant.id, campaign.id, 'activate');
    await incrementCampaignStats(merchant.id, campaign.id, { active: -1, recovered: 1, messages_sent: 3 });
    // Assess
    expect(await getCampaign(merchant.id, campaign.id)).toMatchObject({
      name: 'Renamed',
      status: 'active',
      stats: { enrolled: 2, active: 1, recovered: 1, stopped: 0, completed: 0, messages_sent: 3 },
      version: 3,
    });
  });

  it('lists a campaign in the active index from its activation until it completes', async () => {
    // Prepare
    const merchant = await createMerchant({ name: 'Completing' });
    const campaign = await createCampaign(draft(merchant.id));
    // Act
    const active = await changeCampaignStatus(merchant.id, campaign.id, 'activate');
    const indexed = await getActiveCampaignIndex(merchant.id);
    await changeCampaignStatus(merchant.id, campaign.id, 'pause');
    const completed = await changeCampaignStatus(merchant.id, campaign.id, 'complete');
    // Assess
    expect(indexed.campaigns).toEqual([
      {
        id: campaign.id,
        trigger: 'soft_decline',
        filters: { psp: ['stripe'] },
        activated_at: active.activated_at,
        steps_count: 1,
        // What enrollment needs to time the first step without reading the campaign.
        delay_hours: 0,
        first_step_delay_hours: 24,
        start_hour: 9,
        end_hour: 21,
      },
    ]);
    expect(completed).toMatchObject({ status: 'completed', completed_at: expect.any(String) });
    expect((await getActiveCampaignIndex(merchant.id)).campaigns).toEqual([]);
  });

  it('answers an empty index for a merchant with no active campaign, and undefined for an id that is not a campaign', async () => {
    // Prepare
    const merchant = await createMerchant({ name: 'Empty' });
    // Act and assess
    expect(await getActiveCampaignIndex(merchant.id)).toEqual({ campaigns: [], version: 0 });
    expect(await getCampaign(merchant.id, 'pe_01JZZZZZZZZZZZZZZZZZZZZZZZ')).toBeUndefined();
  });

  it('reads past failures from the category index or the payment range, newest first, and stops at the bound', async () => {
    // Prepare
    const merchant = await createMerchant({ name: 'Replaying' });
    const old = await seedPayment(merchant.id, {}, daysAgo(40));
    const soft1 = await seedPayment(merchant.id, {}, daysAgo(3));
    const hard = await seedPayment(merchant.id, { ...HARD_DECLINE }, daysAgo(2));
    const soft2 = await seedPayment(merchant.id, {}, daysAgo(1));
    const window = { since: daysAgo(30), until: new Date() };
    // Act
    const all = await failedPaymentsSince(merchant.id, { ...window, bound: 100 });
    const soft = await failedPaymentsSince(merchant.id, { ...window, categories: ['soft_retry'], bound: 100 });
    const bounded = await failedPaymentsSince(merchant.id, { ...window, bound: 2 });
    const customers = await customersByIds(merchant.id, [soft1.customer_id, hard.customer_id, soft1.customer_id, 'cust_unknown']);
    // Assess
    expect(all.payments.map((p) => p.id)).toEqual([soft2.id, hard.id, soft1.id]);
    expect(all).toMatchObject({ items_read: 3, truncated: false });
    expect(soft.payments.map((p) => p.id)).toEqual([soft2.id, soft1.id]);
    expect(bounded.payments.map((p) => p.id)).toEqual([soft2.id, hard.id]);
    expect(bounded).toMatchObject({ items_read: 2, truncated: true });
    expect(all.payments.map((p) => p.id)).not.toContain(old.id);
    expect([...customers.keys()].sort()).toEqual([...new Set([soft1.customer_id, hard.customer_id])].sort());
  });
});
