/**
 * Suggestions the vector neighbours decide, over HTTP: a merchant whose own analytics are below a
 * rule's minimum but whose embedded recoveries (auto-embedded payments and POST
 * /vectors/embed-event) support it is offered the suggestion (source `neighbours`, the
 * neighbours' counts as evidence), applies and dismisses it; an analytics suggestion the
 * neighbours contradict is withheld; decisions stand whatever the neighbours say later; no
 * merchant sees another's suggestions.
 */
import { listRecoverySuggestionsSchemas } from '#api/suggestions/schemas';
import { MIN_ENDED_FOR_STOP, suggestionIdOf } from '#core/experiments/suggestions';
import type { LocalStack } from '#lib/local/local-stack';
import { call } from '#test/fixtures/http';
import { startTestStack } from '#test/fixtures/local-stack';
import { seedPaymentThrough } from '#test/fixtures/payments';
import { newTenant, type Tenant, UNLIMITED } from '#test/fixtures/tenants';

// Seeding a merchant's 20 past payments through the status machine and the stream, and embedding ~100 vectors: tens of seconds on a busy machine.
jest.setTimeout(240_000);

interface Suggestion {
  id: string;
  type: string;
  source: string;
  evidence: Record<string, number | string>;
  expected_lift: { recovery_rate_points: number; recovered_payments: number; retries_avoided: number; basis: string };
  neighbour_evidence: { similar: number; recovered: number; failed: number } | null;
}
interface Body<T> {
  data: T;
  error?: { code: string; param?: string; message: string };
}
interface Decided {
  suggestion: Suggestion;
  decision: { status: string; mode: string | null; experiment_id: string | null; source: string | null };
  experiment?: { id: string; kind: string; status: string; source: { type: string; id: string } } | null;
}

const inBatches = async <T, R>(items: readonly T[], size: number, run: (item: T) => Promise<R>): Promise<R[]> => {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += size) out.push(...(await Promise.all(items.slice(i, i + size).map(run))));
  return out;
};

describe('/api/v1/suggestions decided by vector neighbours', () => {
  let stack: LocalStack;
  let sequence = 0;

  const suggestions = (tenant: Tenant) => call<Body<Suggestion[]>>(`${stack.api_url}/suggestions/recovery`, { key: tenant.key });
  const decide = (tenant: Tenant, id: string, action: 'apply' | 'dismiss', body?: unknown) =>
    call<Body<Decided>>(`${stack.api_url}/suggestions/${id}/${action}`, { method: 'POST', key: tenant.key, ...(body === undefined ? {} : { body }) });
  /** Embeds `count` past recoveries of the merchant through POST /vectors/embed-event: the first `recovered` recovered, the others failed. */
  const embed = async (tenant: Tenant, declineCode: string, count: number, recovered: number, failedAt?: string): Promise<void> => {
    const responses = await inBatches(
      Array.from({ length: count }, (_, i) => i),
      10,
      (i) =>
        call<Body<{ embedded: boolean }>>(`${stack.api_url}/vectors/embed-event`, {
          method: 'POST',
          key: tenant.key,
          body: {
            id: `evt_${(sequence += 1)}`,
            decline_code: declineCode,
            amount_cents: 4900,
            currency: 'usd',
            customer_segment: 'first_failure',
            recovery_strategy: 'retry',
            outcome: i < recovered ? 'recovered' : 'failed',
            ...(failedAt === undefined ? {} : { failed_at: failedAt }),
          },
        }),
    );
    expect(responses.map((r) => r.status).filter((status) => status !== 200)).toEqual([]);
  };
  const seedEnded = async (tenant: Tenant, count: number, declineCode: string, at: Date): Promise<void> => {
    await inBatches(
      Array.from({ length: count }, (_, i) => i),
      8,
      (i) => seedPaymentThrough(tenant.merchant.id, ['terminate'], { declineCode, customer: { email: `c${i}.${declineCode}@example.com`, name: 'C' } }, at),
    );
    await stack.runtime.stream.drain();
  };

  beforeAll(async () => {
    stack = await startTestStack();
  }, 240_000);

  afterAll(async () => {
    await stack?.stop();
  });

  describe('a merchant whose analytics are too thin', () => {
    let tenant: Tenant;
    const stopId = suggestionIdOf('stop_retrying_code', 'do_not_honor');
    const paydayId = suggestionIdOf('payday_retry_timing', 'insufficient_funds');

    beforeAll(async () => {
      tenant = await newTenant(['admin'], UNLIMITED);
      // Its last 90 days: 3 do_not_honor and 2 insufficient-funds payments ended unrecovered (auto-embedded when they ended).
      await seedEnded(tenant, 3, 'do_not_honor', new Date('2026-11-09T10:00:00.000Z'));
      await seedEnded(tenant, 2, 'insufficient_funds', new Date('2026-11-09T10:00:00.000Z'));
    }, 240_000);

    it('is offered nothing while its neighbours are as thin as its analytics', async () => {
      // Act
      const response = await suggestions(tenant);
      // Assess
      expect(response.status).toBe(200);
      expect(response.body.data).toEqual([]);
    });

    it('is offered what its embedded recoveries support, marked as coming from the neighbours, with their counts and lift', async () => {
      // Prepare: 22 more do_not_honor cases, none recovered; insufficient funds: 12 of 20 recovered near a payday, 4 of 20 on other days.
      await embed(tenant, 'do_not_honor', 22, 0);
      await embed(tenant, 'insufficient_funds', 20, 12, '2026-10-01T09:00:00.000Z');
      await embed(tenant, 'insufficient_funds', 20, 4, '2026-10-08T09:00:00.000Z');

      // Act
      const response = await suggestions(tenant);

      // Assess
      expect(response.status).toBe(200);
      expect(listRecoverySuggestionsSchemas.responses[200].safeParse(response.body).success).toBe(true);
      const byType = Object.fromEntries(response.body.data.map((s) => [s.type, s]));
      expect(Object.keys(byType).sort()).toEqual(['payday_retry_timing', 'stop_retrying_code']);
      // 3 ended in the window, under the 20 the analytics need: the 25 ended neighbours (22 embedded, 3 auto-embedded) decide.
      expect(byType.stop_retrying_code).toMatchObject({
        id: stopId,
        source: 'neighbours',
        evidence: { decline_code: 'do_not_honor', neighbours_ended: 25, neighbours_recovered: 0, failed: 3, recovered: 0, terminal: 3, window_days: 90 },
        expected_lift: { recovery_rate_points: 0, recovered_payments: 0, retries_avoided: 3 },
        neighbour_evidence: { similar: 25, recovered: 0, failed: 25 },
      });
      // Near a payday 12 of 20 (60%); the others 4 of 22 (the 2 auto-embedded failed on the 9th): 18.2%.
      expect(byType.payday_retry_timing).toMatchObject({
        id: paydayId,
        source: 'neighbours',
        evidence: {
          neighbours_near_payday_ended: 20,
          neighbours_near_payday_recovered: 12,
          neighbours_other_ended: 22,
          neighbours_other_recovered: 4,
          other_failed: 2,
        },
        expected_lift: { recovery_rate_points: 0.4182, recovered_payments: 1 },
      });
    });

    it('applies a neighbour-proposed suggestion as an experiment, and the decision stands when the neighbours change', async () => {
      // Act
      const applied = await decide(tenant, stopId, 'apply');
      // The neighbours now contradict it (5 of 30 ended recovered): the decision still stands.
      await embed(tenant, 'do_not_honor', 5, 5);
      const again = await decide(tenant, stopId, 'apply', { mode: 'direct' });
      const dismissAfter = await decide(tenant, stopId, 'dismiss');
      const listed = await suggestions(tenant);

      // Assess
      expect(applied.status).toBe(200);
      expect(applied.body.data).toMatchObject({
        suggestion: { id: stopId, source: 'neighbours' },
        decision: { status: 'applied', mode: 'experiment', source: 'neighbours' },
        experiment: { kind: 'retry_timing', status: 'running', source: { type: 'suggestion', id: stopId } },
      });
      expect(applied.body.data.decision.experiment_id).toBe(applied.body.data.experiment?.id);
      const experiment = await call<Body<{ id: string; status: string }>>(`${stack.api_url}/experiments/${applied.body.data.experiment?.id}`, {
        key: tenant.key,
      });
      expect(experiment.body.data).toMatchObject({ status: 'running' });
      expect(again.status).toBe(409);
      expect(again.body.error?.code).toBe('state_conflict');
      expect(dismissAfter.status).toBe(409);
      expect(listed.body.data.map((s) => s.id)).toEqual([paydayId]);
    });

    it('dismisses a neighbour-proposed suggestion: it is not proposed again, even while the neighbours still support it', async () => {
      // Act
      const dismissed = await decide(tenant, paydayId, 'dismiss');
      await embed(tenant, 'insufficient_funds', 5, 5, '2026-10-02T09:00:00.000Z');
      const listed = await suggestions(tenant);
      const applyAfter = await decide(tenant, paydayId, 'apply');

      // Assess
      expect(dismissed.status).toBe(200);
      expect(dismissed.body.data).toMatchObject({
        suggestion: { id: paydayId, source: 'neighbours' },
        decision: { status: 'dismissed', mode: null, experiment_id: null, source: 'neighbours' },
      });
      expect(listed.body.data).toEqual([]);
      expect(applyAfter.status).toBe(409);
    });

    it('keeps its suggestions to itself: another merchant lists none of them and gets 404 on their ids', async () => {
      // Prepare
      const fresh = await newTenant(['admin']);
      const other = await newTenant(['admin'], UNLIMITED);
      // The other merchant proposes the same finding from its own neighbours: its own id space, its own decision.
      await embed(other, 'do_not_honor', 20, 0);
      await seedEnded(other, 1, 'do_not_honor', new Date('2026-11-09T10:00:00.000Z'));

      // Act
      const freshList = await suggestions(fresh);
      const freshApply = await decide(fresh, paydayId, 'apply');
      const freshDismiss = await decide(fresh, stopId, 'dismiss');
      const otherList = await suggestions(other);

      // Assess
      expect(freshList.status).toBe(200);
      expect(freshList.body.data).toEqual([]);
      expect(freshApply.status).toBe(404);
      expect(freshApply.body.error).toMatchObject({ code: 'resource_not_found', param: 'id' });
      expect(freshDismiss.status).toBe(404);
      // The same deterministic id, yet the other merchant's own suggestion: not applied (this merchant applied its own).
      expect(otherList.body.data.map((s) => [s.id, s.source, s.evidence.neighbours_ended])).toEqual([[stopId, 'neighbours', 21]]);
    });
  });

  describe('a merchant whose neighbours contradict its analytics', () => {
    let tenant: Tenant;
    const stopId = suggestionIdOf('stop_retrying_code', 'do_not_honor');

    beforeAll(async () => {
      tenant = await newTenant(['admin'], UNLIMITED);
      // 20 do_not_honor payments ended unrecovered in its last 90 days: the analytics propose to stop retrying the code.
      await seedEnded(tenant, MIN_ENDED_FOR_STOP, 'do_not_honor', new Date('2026-11-09T10:00:00.000Z'));
    }, 240_000);

    it('is offered the analytics suggestion, from both sources while the neighbours agree', async () => {
      // Act
      const response = await suggestions(tenant);
      // Assess
      expect(response.body.data.find((s) => s.id === stopId)).toMatchObject({
        source: 'both',
        evidence: { decline_code: 'do_not_honor', failed: 20, recovered: 0, terminal: 20 },
        neighbour_evidence: { similar: 20, recovered: 0, failed: 20 },
      });
    });

    it('withholds it once its similar past payments show recoveries (at least 10% of those ended): not listed, and apply is 404', async () => {
      // Prepare: recoveries of the code it imported from before the window: 4 of 24 ended recovered (16.7%).
      await embed(tenant, 'do_not_honor', 4, 4);

      // Act
      const response = await suggestions(tenant);
      const applied = await decide(tenant, stopId, 'apply');

      // Assess
      expect(response.status).toBe(200);
      expect(response.body.data.map((s) => s.id)).not.toContain(stopId);
      expect(applied.status).toBe(404);
      expect(applied.body.error).toMatchObject({ code: 'resource_not_found', param: 'id' });
    });
  });
});
