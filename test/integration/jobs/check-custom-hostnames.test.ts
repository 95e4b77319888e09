/**
 * The every-minute task `check-custom-hostnames` at times the test picks: pending hostnames are
 * re-checked on Cloudflare's backoff (min(60·1.05ⁿ s, 4 h)) from the hostname check index, go
 * active once DNS is right, and are blocked 7 days after provisioning; active ones are re-checked
 * daily and go `moved` when their CNAME leaves. Each change records `custom_hostname.updated`.
 * DNS is answered by a server on loopback.
 */
import { checkIntervalSeconds, CHECK_WINDOW_MS } from '#core/custom-hostnames';
import { getCustomHostname } from '#data/custom-hostname-repository';
import { listOutboundEvents } from '#data/outbound-event-repository';
import { checkCustomHostnames } from '#jobs/check-custom-hostnames';
import { handler as everyMinute } from '#jobs/every-minute';
import { useDnsStack } from '#test/fixtures/dns-stack';
import { call } from '#test/fixtures/http';
import { originOf } from '#test/fixtures/local-stack';
import { scheduledJobEventAt } from '#test/fixtures/scheduled-jobs';
import { newTenant, type Tenant, UNLIMITED } from '#test/fixtures/tenants';

interface Provisioned {
  id: string;
  hostname: string;
  cname_target: string;
  created_at: string;
  next_check_at: string;
  ownership_verification: { name: string; value: string };
}

let sequence = 0;
const uniqueHostname = (): string => `shop-${Date.now().toString(36)}-${(sequence += 1)}.checker.example`;
const at = (iso: string, plusMs = 0): Date => new Date(Date.parse(iso) + plusMs);
const run = (now: Date) => checkCustomHostnames({ now, executionId: `test-${now.getTime()}` });

describe('check-custom-hostnames (every minute)', () => {
  const running = useDnsStack();

  async function provisioned(): Promise<{ tenant: Tenant; hostname: Provisioned }> {
    const tenant = await newTenant(['admin'], UNLIMITED);
    const response = await call<{ data: Provisioned }>(`${originOf(running.stack)}/api/custom-hostname/provision`, {
      method: 'POST',
      key: tenant.key,
      body: { hostname: uniqueHostname() },
    });
    expect(response.status).toBe(201);
    return { tenant, hostname: response.body.data };
  }

  const updates = async (tenant: Tenant) =>
    (await listOutboundEvents(tenant.merchant.id))
      .filter((event) => event.types.includes('custom_hostname.updated'))
      .map((event) => [event.data.object.previous_status, event.data.object.status]);

  it('checks a pending hostname a minute after provisioning, then on the backoff, not before', async () => {
    // Prepare
    const { tenant, hostname } = await provisioned();

    // Act
    await run(at(hostname.created_at, 30_000));
    const early = await getCustomHostname(tenant.merchant.id, hostname.id);
    const times: string[] = [];
    let due = hostname.next_check_at;
    for (let i = 0; i < 4; i += 1) {
      await run(new Date(due));
      const record = await getCustomHostname(tenant.merchant.id, hostname.id);
      times.push(record.last_checked_at as string);
      due = record.next_check_at as string;
    }

    // Assess
    expect(early.checks).toBe(0);
    expect(times[0]).toBe(at(hostname.created_at, 60_000).toISOString());
    const gaps = times.slice(1).map((time, i) => (Date.parse(time) - Date.parse(times[i] as string)) / 1000);
    expect(gaps).toEqual([checkIntervalSeconds(1), checkIntervalSeconds(2), checkIntervalSeconds(3)]);
    const record = await getCustomHostname(tenant.merchant.id, hostname.id);
    expect(record).toMatchObject({ status: 'pending', checks: 4 });
    expect(await updates(tenant)).toEqual([]);
  }, 60_000);

  it('makes a pending hostname active once its DNS is right, and records the change', async () => {
    // Prepare
    const { tenant, hostname } = await provisioned();
    running.dns.setCname(hostname.hostname, hostname.cname_target);
    running.dns.setTxt(hostname.ownership_verification.name, [hostname.ownership_verification.value]);

    // Act
    const summary = await run(new Date(hostname.next_check_at));

    // Assess
    expect(summary).toMatchObject({ failed: 0 });
    expect((summary.active as number) >= 1).toBe(true);
    const record = await getCustomHostname(tenant.merchant.id, hostname.id);
    expect(record).toMatchObject({ status: 'active', certificate: { status: 'active' } });
    expect(record.next_check_at).toBe(at(hostname.next_check_at, 24 * 3600 * 1000).toISOString());
    expect(await updates(tenant)).toEqual([['pending', 'active']]);
  }, 60_000);

  it('marks an active hostname moved at its daily check when the CNAME left', async () => {
    // Prepare
    const { tenant, hostname } = await provisioned();
    running.dns.setCname(hostname.hostname, hostname.cname_target);
    running.dns.setTxt(hostname.ownership_verification.name, [hostname.ownership_verification.value]);
    await run(new Date(hostname.next_check_at));
    const active = await getCustomHostname(tenant.merchant.id, hostname.id);
    running.dns.setCname(hostname.hostname, 'other-cdn.example');

    // Act
    await run(new Date(active.next_check_at as string));

    // Assess
    const record = await getCustomHostname(tenant.merchant.id, hostname.id);
    expect(record).toMatchObject({ status: 'moved', next_check_at: null });
    expect(await updates(tenant)).toEqual([
      ['pending', 'active'],
      ['active', 'moved'],
    ]);
  }, 60_000);

  it('blocks a hostname still pending 7 days after provisioning, and checks it no more', async () => {
    // Prepare
    const { tenant, hostname } = await provisioned();
    await run(new Date(hostname.next_check_at));
    const deadline = at(hostname.created_at, CHECK_WINDOW_MS);

    // Act
    await run(new Date(deadline.getTime() - 1));
    const lastPending = await getCustomHostname(tenant.merchant.id, hostname.id);
    await run(deadline);
    const blocked = await getCustomHostname(tenant.merchant.id, hostname.id);
    await run(at(deadline.toISOString(), 3600_000));
    const later = await getCustomHostname(tenant.merchant.id, hostname.id);

    // Assess
    expect(lastPending).toMatchObject({ status: 'pending', next_check_at: deadline.toISOString() });
    expect(blocked).toMatchObject({ status: 'blocked', next_check_at: null });
    expect(blocked.verification_errors).toContain('Not verified within 7 days: fix the DNS records, then call verify again');
    expect(later.checks).toBe(blocked.checks);
    expect(await updates(tenant)).toEqual([['pending', 'blocked']]);
  }, 60_000);

  it('lets verify bring a blocked hostname back once its DNS is right', async () => {
    // Prepare
    const { tenant, hostname } = await provisioned();
    await run(at(hostname.created_at, CHECK_WINDOW_MS));
    running.dns.setCname(hostname.hostname, hostname.cname_target);
    running.dns.setTxt(hostname.ownership_verification.name, [hostname.ownership_verification.value]);

    // Act
    const response = await call<{ data: { status: string; next_check_at: string | null } }>(`${originOf(running.stack)}/api/custom-hostname/verify`, {
      method: 'POST',
      key: tenant.key,
      body: { hostname: hostname.hostname },
    });

    // Assess
    expect(response.status).toBe(200);
    expect(response.body.data.status).toBe('active');
    // The block was recorded at the run's time 7 days ahead, so it lists after the verify of today: compare as a set.
    const changes = await updates(tenant);
    expect(changes).toHaveLength(2);
    expect(changes).toEqual(
      expect.arrayContaining([
        ['pending', 'blocked'],
        ['blocked', 'active'],
      ]),
    );
  }, 60_000);

  it('runs in the every-minute job', async () => {
    // Prepare
    const { hostname } = await provisioned();
    // Act
    const report = await everyMinute(scheduledJobEventAt('every-minute', new Date(hostname.next_check_at)));
    // Assess
    expect(report.tasks.find((task) => task.name === 'check-custom-hostnames')).toMatchObject({ status: 'ok', summary: { failed: 0 } });
  }, 60_000);
});
