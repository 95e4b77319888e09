import type { Merchant } from '#core/merchants';
import { timeOrderedId } from '#core/ids';
import { dynamo } from '#data/client';
import { countSending, getSendingPause, judgeSending, type LocalMessage, putLocalMessage } from '#data/channel-repository';
import { createMerchant } from '#data/merchant-repository';
import { admin } from '#test/fixtures/admin-cli';

// The first run bundles the CLI (bin/cli.mjs).
jest.setTimeout(90_000);

afterAll(() => dynamo.destroy());

describe('admin CLI: messages list', () => {
  let merchant: Merchant;
  let other: Merchant;
  const T0 = Date.parse('2026-11-01T09:00:00.000Z');

  const store = (merchantId: string, channel: 'sms' | 'whatsapp', minutes: number, to: string) => {
    const body = timeOrderedId(new Date(T0 + minutes * 60_000));
    const message: LocalMessage = {
      id: `lmsg_${body}`,
      merchant_id: merchantId,
      customer_id: 'cus_texts',
      message_id: `msg_${body}`,
      channel,
      to,
      body: `Hello ${to}`,
      content_sid: channel === 'whatsapp' ? 'HXabc' : null,
      created_at: new Date(T0 + minutes * 60_000).toISOString(),
    };
    return putLocalMessage(message, body);
  };

  beforeAll(async () => {
    merchant = await createMerchant({ name: 'Texts merchant' });
    other = await createMerchant({ name: 'Other texts merchant' });
    await store(merchant.id, 'sms', 0, '+14155550100');
    await store(merchant.id, 'whatsapp', 1, '+14155550101');
    await store(merchant.id, 'sms', 2, '+14155550102');
    await store(other.id, 'sms', 3, '+14155550103');
  });

  it("prints the merchant's SMS and WhatsApp as JSON, newest first, filtered by channel", async () => {
    // Act
    const all = await admin(['messages', 'list', '--merchant', merchant.id]);
    const whatsapp = await admin(['messages', 'list', '--merchant', merchant.id, '--channel', 'whatsapp']);
    const everyone = await admin(['messages', 'list', '--limit', '2']);
    // Assess
    expect(all).toMatchObject({ code: 0, stderr: '' });
    expect((JSON.parse(all.stdout) as LocalMessage[]).map((message) => message.to)).toEqual(['+14155550102', '+14155550101', '+14155550100']);
    expect(JSON.parse(whatsapp.stdout)).toEqual([expect.objectContaining({ channel: 'whatsapp', to: '+14155550101', content_sid: 'HXabc' })]);
    expect((JSON.parse(everyone.stdout) as LocalMessage[]).map((message) => [message.merchant_id, message.to])).toEqual([
      [other.id, '+14155550103'],
      [merchant.id, '+14155550102'],
    ]);
  });

  it.each<[string, string[], RegExp]>([
    ['an unknown channel', ['--channel', 'email'], /--channel/],
    ['an unknown merchant', ['--merchant', 'merch_nope'], /unknown merchant "merch_nope"/],
  ])('exits 2 with a one-line error when given %s', async (_case, args, message) => {
    // Act
    const run = await admin(['messages', 'list', ...args]);
    // Assess
    expect(run).toMatchObject({ code: 2, stdout: '' });
    expect(run.stderr).toMatch(message);
  });
});

describe('admin CLI: sending status and resume', () => {
  it("shows a merchant's automatic pause and lifts it", async () => {
    // Prepare: 300 sends, 9 bounced (3%): judged and paused
    const merchant = await createMerchant({ name: 'Paused sender' });
    await countSending(merchant.id, 'sent', new Date(), 300);
    await countSending(merchant.id, 'bounced', new Date(), 9);
    await judgeSending(merchant.id);

    // Act
    const status = await admin(['sending', 'status', '--merchant', merchant.id]);
    const resume = await admin(['sending', 'resume', '--merchant', merchant.id]);
    const again = await admin(['sending', 'resume', '--merchant', merchant.id]);

    // Assess
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({
      sending_paused: true,
      pause: { reason: expect.stringContaining('bounce rate 3.00%'), since: expect.any(String) },
      last_30_days: { sent: 300, bounced: 9, complained: 0 },
    });
    expect(JSON.parse(resume.stdout)).toMatchObject({ merchant_id: merchant.id, resumed: true, lifted: { reason: expect.stringContaining('bounce') } });
    expect(JSON.parse(again.stdout)).toMatchObject({ resumed: false, lifted: null });
    expect(await getSendingPause(merchant.id)).toBeUndefined();
    // Judged again from the lift on: the same month's counts do not pause it again.
    expect(await judgeSending(merchant.id)).toBeUndefined();
  });

  it('exits 2 without --merchant', async () => {
    // Act
    const run = await admin(['sending', 'resume']);
    // Assess
    expect(run).toMatchObject({ code: 2, stdout: '' });
  });
});
