/**
 * Email sending domains beyond the API: the daily tasks `pending-domain-provisioning` (pending
 * domains re-checked from the index; verified once DNS is right, failed after 72 h) and
 * `domain-warm-up` (the cap steps along the published schedule), each run with a given `now` and
 * idempotent per day; and campaign email sent from the merchant's verified domain through the
 * local stack's mail catcher, held at the warm-up cap, from the default sender once deleted.
 */
import { handler } from '#consumers/notifications';
import { handler as daily } from '#jobs/daily';
import { localDkimTokens } from '#adapters/email-identity/local';
import { sendMessageOf } from '#contracts/notifications';
import { WARM_UP_SCHEDULE } from '#core/email-domains';
import { dayOf } from '#core/analytics/period';
import { domainSendsOn, emailDomainClaimHolder, getEmailDomain, reserveDomainSend } from '#data/email-domain-repository';
import { createMerchant } from '#data/merchant-repository';
import { createMessage, getMessage } from '#data/message-repository';
import { listOutboundEvents } from '#data/outbound-event-repository';
import { autoProvisionDomain, removeDomain, setUpCustomDomain, verifyDomain } from '#services/email-domains';
import type { LocalStack } from '#lib/local/local-stack';
import { startDnsServer, type TestDnsServer } from '#test/fixtures/dns-server';
import { startTestStack } from '#test/fixtures/local-stack';
import { seedPaymentThrough } from '#test/fixtures/payments';
import { sqsEventOf } from '#test/fixtures/recoveries';
import { scheduledJobEventAt } from '#test/fixtures/scheduled-jobs';

jest.setTimeout(60_000);

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

let stack: LocalStack;
let dns: TestDnsServer;
const savedDns = process.env.DNS_SERVERS;

beforeAll(async () => {
  dns = await startDnsServer();
  process.env.DNS_SERVERS = dns.address;
  stack = await startTestStack({ mailCatcher: true });
}, 90_000);

afterAll(async () => {
  await stack?.stop();
  await dns?.close();
  if (savedDns === undefined) delete process.env.DNS_SERVERS;
  else process.env.DNS_SERVERS = savedDns;
});

let sequence = 0;
const uniqueDomain = (): string => `news${Date.now().toString(36)}${(sequence++).toString(36)}.example.org`;

function publishDkim(domain: string): void {
  for (const token of localDkimTokens(domain)) dns.setCname(`${token}._domainkey.${domain}`, `${token}.dkim.amazonses.com`);
}

const runDaily = async (at: Date) => {
  const report = await daily(scheduledJobEventAt('daily', at));
  const task = (name: string) => report.tasks.find((candidate) => candidate.name === name);
  return { pending: task('pending-domain-provisioning'), warmUp: task('domain-warm-up') };
};

describe('daily task pending-domain-provisioning', () => {
  it('verifies a pending domain once its DKIM records resolve, fails one still pending after 72 h, and changes nothing on a rerun', async () => {
    // Prepare
    const setupAt = new Date('2026-03-02T10:00:00Z');
    const [ready, abandoned, waiting] = [
      await createMerchant({ name: 'Ready' }),
      await createMerchant({ name: 'Abandoned' }),
      await createMerchant({ name: 'Waiting' }),
    ];
    const readyDomain = (await setUpCustomDomain(ready.id, uniqueDomain(), setupAt)).diagnostics.domain;
    const abandonedDomain = (await setUpCustomDomain(abandoned.id, uniqueDomain(), new Date(setupAt.getTime() - 3 * DAY))).diagnostics.domain;
    const waitingDomain = (await setUpCustomDomain(waiting.id, uniqueDomain(), setupAt)).diagnostics.domain;
    publishDkim(readyDomain.domain);
    const runAt = new Date('2026-03-03T08:00:00Z');

    // Act
    const first = await runDaily(runAt);
    const afterFirst = await Promise.all(
      [ready, abandoned, waiting].map((m, i) => getEmailDomain(m.id, [readyDomain, abandonedDomain, waitingDomain][i]?.id as string)),
    );
    const second = await runDaily(runAt);
    const afterSecond = await Promise.all(
      [ready, abandoned, waiting].map((m, i) => getEmailDomain(m.id, [readyDomain, abandonedDomain, waitingDomain][i]?.id as string)),
    );

    // Assess
    expect(first.pending?.status).toBe('ok');
    expect(afterFirst.map((domain) => domain.status)).toEqual(['verified', 'failed', 'pending']);
    expect(afterFirst[0]).toMatchObject({ dkim_status: 'SUCCESS', verified_at: runAt.toISOString(), daily_cap: WARM_UP_SCHEDULE[0], warm_up_day: 0 });
    expect(afterFirst[1]).toMatchObject({ dkim_status: 'PENDING', failed_at: runAt.toISOString(), failure_reason: expect.stringContaining('72 hours') });
    expect(afterFirst[2]).toMatchObject({ dkim_status: 'PENDING', last_checked_at: runAt.toISOString() });
    expect(second.pending?.status).toBe('ok');
    expect(afterSecond.map((domain) => [domain.status, domain.verified_at, domain.failed_at])).toEqual(
      afterFirst.map((domain) => [domain.status, domain.verified_at, domain.failed_at]),
    );
    expect(afterSecond[0]?.version).toBe(afterFirst[0]?.version);
    expect(afterSecond[1]?.version).toBe(afterFirst[1]?.version);
    const eventsOf = async (merchantId: string) => (await listOutboundEvents(merchantId)).map((event) => ({ types: event.types, object: event.data.object }));
    expect(await eventsOf(ready.id)).toEqual([
      {
        types: ['email_domain.verified'],
        object: expect.objectContaining({
          email_domain_id: readyDomain.id,
          domain: readyDomain.domain,
          status: 'verified',
          previous_status: 'pending',
          dkim_status: 'SUCCESS',
        }),
      },
    ]);
    expect(await eventsOf(abandoned.id)).toEqual([
      {
        types: ['email_domain.failed'],
        object: expect.objectContaining({ email_domain_id: abandonedDomain.id, status: 'failed', failure_reason: expect.stringContaining('72 hours') }),
      },
    ]);
    expect(await eventsOf(waiting.id)).toEqual([]);
    // A failed domain gives up its name, so its owner can set it up; the others keep theirs.
    expect(await emailDomainClaimHolder(abandonedDomain.domain)).toBeUndefined();
    expect(await emailDomainClaimHolder(readyDomain.domain)).toBe(ready.id);
    expect(await emailDomainClaimHolder(waitingDomain.domain)).toBe(waiting.id);
  });

  it("lets the owner claim a failed domain's name, and the failed domain's deletion then leaves the owner's claim alone", async () => {
    // Prepare
    const [squatter, owner] = [await createMerchant({ name: 'Squatter' }), await createMerchant({ name: 'Owner' })];
    const name = uniqueDomain();
    const squatted = (await setUpCustomDomain(squatter.id, name, new Date('2026-06-01T08:00:00Z'))).diagnostics.domain;
    await runDaily(new Date('2026-06-05T08:00:00Z'));
    // Act
    const claimed = await setUpCustomDomain(owner.id, name);
    await removeDomain(squatter.id, squatted.id);
    // Assess
    expect(claimed.created).toBe(true);
    expect(await emailDomainClaimHolder(name)).toBe(owner.id);
    await expect(getEmailDomain(squatter.id, squatted.id)).rejects.toThrow('No email domain');
    expect((await getEmailDomain(owner.id, claimed.diagnostics.domain.id)).status).toBe('pending');
  });
});

describe('daily task domain-warm-up', () => {
  it('steps the daily cap along the published schedule, once per day, until uncapped', async () => {
    // Prepare
    const merchant = await createMerchant({ name: 'Warming' });
    const verifiedAt = new Date('2026-04-01T09:30:00Z');
    const { domain } = (await setUpCustomDomain(merchant.id, uniqueDomain(), new Date(verifiedAt.getTime() - HOUR))).diagnostics;
    publishDkim(domain.domain);
    await verifyDomain(merchant.id, { id: domain.id }, verifiedAt);
    const capAt = async (at: string) => {
      const report = await runDaily(new Date(at));
      const stored = await getEmailDomain(merchant.id, domain.id);
      return { report: report.warmUp, cap: stored.daily_cap, day: stored.warm_up_day, version: stored.version };
    };

    // Act
    const day1 = await capAt('2026-04-02T08:00:00Z');
    const day1Again = await capAt('2026-04-02T08:00:00Z');
    const day3 = await capAt('2026-04-04T08:00:00Z');
    const past = await capAt(`2026-04-${String(2 + WARM_UP_SCHEDULE.length).padStart(2, '0')}T08:00:00Z`);
    const after = await capAt(`2026-04-${String(3 + WARM_UP_SCHEDULE.length).padStart(2, '0')}T08:00:00Z`);

    // Assess
    expect(day1).toMatchObject({ cap: WARM_UP_SCHEDULE[1], day: 1, report: { status: 'ok' } });
    expect(day1Again).toMatchObject({ cap: WARM_UP_SCHEDULE[1], day: 1, version: day1.version });
    expect(day3).toMatchObject({ cap: WARM_UP_SCHEDULE[3], day: 3 });
    expect(past).toMatchObject({ cap: null, day: null });
    expect(after.version).toBe(past.version);
  });
});

/** An email as maildev's REST API gives it. */
interface CaughtEmail {
  readonly from: ReadonlyArray<{ address: string; name: string }>;
  readonly to: ReadonlyArray<{ address: string }>;
  readonly headers: Record<string, string>;
}

describe('campaign email from the merchant’s sending domain', () => {
  const caughtFor = async (address: string): Promise<CaughtEmail[]> => {
    const emails = (await (await fetch(`${stack.mail_catcher_url}/api/email`)).json()) as CaughtEmail[];
    return emails.filter((email) => email.to.some((to) => to.address === address));
  };
  const sendTo = async (merchantId: string, to: string) => {
    const payment = await seedPaymentThrough(merchantId, [], { customer: { email: to, name: 'Grace' } });
    const message = await createMessage({
      merchantId,
      customerId: payment.customer_id,
      paymentId: payment.id,
      recoveryId: payment.recovery_id,
      channel: 'email',
      purpose: 'campaign',
      to,
      campaignId: 'camp_domains',
      stepIndex: 0,
    });
    const result = await handler(sqsEventOf(sendMessageOf(merchantId, message.id)));
    expect(result.batchItemFailures).toEqual([]);
    return message.id;
  };

  it("sends from the verified custom domain, holds mail over its day's warm-up cap until the next UTC day, and falls back once it is deleted", async () => {
    // Prepare
    const merchant = await createMerchant({ name: 'Sender Co' });
    const managed = (await autoProvisionDomain(merchant.id)).domain;
    const { domain: custom } = (await setUpCustomDomain(merchant.id, uniqueDomain())).diagnostics;
    publishDkim(custom.domain);
    const verified = (await verifyDomain(merchant.id, { id: custom.id })).domain;
    const today = new Date();
    const dayZeroCap = WARM_UP_SCHEDULE[0] as number;
    for (let sent = 1; sent < dayZeroCap; sent += 1) await reserveDomainSend(verified, dayOf(today), dayZeroCap, today);

    // Act
    const firstId = await sendTo(merchant.id, 'grace1@example.com');
    const heldId = await sendTo(merchant.id, 'grace2@example.com');
    await removeDomain(merchant.id, custom.id);
    const afterDeleteId = await sendTo(merchant.id, 'grace3@example.com');
    await removeDomain(merchant.id, managed.id);
    const defaultId = await sendTo(merchant.id, 'grace4@example.com');

    // Assess
    const [first] = await caughtFor('grace1@example.com');
    expect(first?.from).toEqual([{ address: `no-reply@${custom.domain}`, name: 'Sender Co' }]);
    expect(await getMessage(merchant.id, firstId)).toMatchObject({ status: 'sent' });
    expect(await caughtFor('grace2@example.com')).toHaveLength(0);
    const held = await getMessage(merchant.id, heldId);
    const nextMidnight = new Date(Math.floor(Date.now() / DAY + 1) * DAY);
    expect(held).toMatchObject({ status: 'scheduled', scheduled_at: nextMidnight.toISOString(), status_reason: expect.stringContaining('warming up') });
    expect((await caughtFor('grace3@example.com'))[0]?.from).toEqual([{ address: `no-reply@${managed.domain}`, name: 'Sender Co' }]);
    expect(await domainSendsOn(managed, dayOf(today))).toBe(1);
    expect(await getMessage(merchant.id, afterDeleteId)).toMatchObject({ status: 'sent' });
    expect((await caughtFor('grace4@example.com'))[0]?.from).toEqual([{ address: 'no-reply@recovery.local', name: 'Sender Co' }]);
    expect(await getMessage(merchant.id, defaultId)).toMatchObject({ status: 'sent' });
  });
});
