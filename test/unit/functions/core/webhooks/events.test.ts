import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  catalogueEntry,
  deliveredType,
  type EVENT_CATALOGUE,
  EVENT_TYPES,
  isEventType,
  matchesSubscription,
  namesOf,
  samplePayload,
  TEST_EVENT_TYPE,
  testPayload,
} from '#core/webhooks/events';

/** Every `types` list the services and the data layer pass to outboundEventItem (read from the source). */
function recordedTypeLists(): string[][] {
  const lists: string[][] = [];
  for (const folder of ['services', 'data']) {
    const root = join(__dirname, '..', '..', '..', '..', '..', 'functions', folder);
    for (const file of readdirSync(root, { recursive: true }) as string[]) {
      if (!file.endsWith('.ts')) continue;
      const source = readFileSync(join(root, file), 'utf8');
      for (const match of source.matchAll(/outboundEventItem\(\s*[^,]+,\s*[^,]+,\s*\[([^\]]*)\]/g)) {
        lists.push([...(match[1] ?? '').matchAll(/'([^']+)'/g)].map((name) => name[1] as string));
      }
    }
  }
  return lists;
}

describe('event catalogue', () => {
  it('catalogues every event type the services record, with all names of a fact in one entry', () => {
    // Prepare
    const lists = recordedTypeLists();

    // Act
    const entries = lists.map((types) => types.map((type) => catalogueEntry(type)));

    // Assess
    expect(lists.length).toBeGreaterThanOrEqual(10);
    for (const [index, types] of lists.entries()) {
      const found = entries[index] ?? [];
      expect(found.every((entry) => entry !== undefined && entry === found[0])).toBe(true);
      expect(namesOf(found[0] as (typeof EVENT_CATALOGUE)[number]).sort()).toEqual([...types].sort());
      expect(found[0]?.recorded).toBe(true);
    }
  });

  it('leaves pausing and resuming payments to services/pause-payments.ts, which records their events', () => {
    // Prepare
    const root = join(__dirname, '..', '..', '..', '..', '..', 'functions');
    // Act
    const appliers = (readdirSync(root, { recursive: true }) as string[]).filter(
      (file) => file.endsWith('.ts') && /\btype: '(pause|resume)'/.test(readFileSync(join(root, file), 'utf8')),
    );
    // Assess
    expect(appliers).toEqual([join('core', 'payments.ts')]);
  });

  it("holds DESIGN §1's thirteen event names, the spec's A and B examples, and the service's own events", () => {
    const design = [
      'payment.failed',
      'payment.recovered',
      'payment.terminal',
      'payment.paused',
      'payment.resumed',
      'recovery.retry_scheduled',
      'recovery.retry_attempted',
      'recovery.succeeded',
      'recovery.failed',
      'campaign.activated',
      'campaign.paused',
      'dunning.sent',
      'customer.deleted',
    ];
    for (const name of design) expect(isEventType(name)).toBe(true);
    // Beyond the thirteen: the service's own webhook_endpoint.disabled (issue 13), the completion of a
    // cancel session (issue 14), and sending domains' and custom hostnames' state changes (issue 16).
    expect(EVENT_TYPES.filter((name) => !design.includes(name))).toEqual([
      'cancel_session.completed',
      'webhook_endpoint.disabled',
      'email_domain.verified',
      'email_domain.failed',
      'custom_hostname.updated',
    ]);
    expect(catalogueEntry('recovery.succeeded')).toBe(catalogueEntry('payment.recovered'));
    expect(catalogueEntry('recovery.failed')).toBe(catalogueEntry('payment.terminal'));
    expect(isEventType(TEST_EVENT_TYPE)).toBe(false);
    expect(isEventType('payment.exploded')).toBe(false);
  });

  it('gives every entry a description and a sample payload of the DESIGN §1 shape, typed with the name asked for', () => {
    // Prepare
    const now = new Date('2026-11-25T12:00:00.000Z');

    for (const name of EVENT_TYPES) {
      // Act
      const sample = samplePayload(name, 'merch_demo', now);

      // Assess
      expect(catalogueEntry(name)?.description.length).toBeGreaterThan(10);
      expect(sample).toEqual({
        id: expect.stringMatching(/^evt_/),
        type: name,
        created_at: now.toISOString(),
        merchant_id: 'merch_demo',
        data: { object: expect.any(Object) },
      });
      expect(Object.keys(sample?.data.object ?? {}).length).toBeGreaterThan(0);
    }
    expect(samplePayload('nope', 'merch_demo')).toBeUndefined();
  });

  it('samples money as integer minor units with a lowercase currency', () => {
    const object = samplePayload('payment.recovered', 'merch_demo')?.data.object ?? {};
    expect(Number.isInteger(object.amount)).toBe(true);
    expect(object.currency).toBe('usd');
  });

  it('matches a subscription by any name of the fact', () => {
    expect(matchesSubscription(['recovery.succeeded'], ['payment.recovered', 'recovery.succeeded'])).toBe(true);
    expect(matchesSubscription(['payment.recovered'], ['payment.recovered', 'recovery.succeeded'])).toBe(true);
    expect(matchesSubscription(['payment.failed'], ['payment.recovered', 'recovery.succeeded'])).toBe(false);
  });

  it("delivers under the name subscribed to, A's when the target took both, whatever order the event lists them in", () => {
    // Prepare
    const recovered = ['payment.recovered', 'recovery.succeeded'];
    // Assess
    expect(deliveredType(['payment.recovered', 'recovery.succeeded'], recovered)).toBe('recovery.succeeded');
    expect(deliveredType(['payment.recovered'], recovered)).toBe('payment.recovered');
    expect(deliveredType(['recovery.succeeded'], recovered)).toBe('recovery.succeeded');
    expect(deliveredType(['payment.failed'], ['payment.failed'])).toBe('payment.failed');
    expect(deliveredType(['payment.failed'], recovered)).toBeUndefined();
  });

  it('builds the test payload for an endpoint', () => {
    const now = new Date('2026-11-25T12:00:00.000Z');
    expect(testPayload('evt_1', 'merch_1', 'we_1', now)).toEqual({
      id: 'evt_1',
      type: 'webhook.test',
      created_at: now.toISOString(),
      merchant_id: 'merch_1',
      data: { object: { endpoint_id: 'we_1', message: expect.any(String) } },
    });
  });
});
