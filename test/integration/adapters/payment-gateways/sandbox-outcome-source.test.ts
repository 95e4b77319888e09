import { sandboxGateway, useSandboxOutcomeSource } from '#adapters/payment-gateways/sandbox';
import type { GatewayChargeRequest } from '#core/payment-gateway';
import { sandboxChargesOf } from '#data/sandbox-charge-repository';

/** The sandbox gateway's outcome-source seam (the recovery simulator's): it decides first answers only, and only while installed. */
const merchant = (): string => `merch_sbx${Math.random().toString(36).slice(2, 10)}`;
const request = (merchantId: string, overrides: Partial<GatewayChargeRequest> = {}): GatewayChargeRequest => ({
  merchantId,
  paymentId: 'pe_01SANDBOXSOURCE',
  psp: 'stripe',
  providerPaymentId: 'sim_1_0',
  invoiceId: null,
  amount: 1999,
  currency: 'usd',
  declineCode: 'processing_error',
  attemptNumber: 1,
  idempotencyKey: `retry-pe_01SANDBOXSOURCE-${Math.random().toString(36).slice(2, 8)}`,
  ...overrides,
});

describe('sandbox gateway outcome source', () => {
  afterEach(() => useSandboxOutcomeSource(undefined));

  it("answers with the source's decline, keeps that first answer for the same key, and goes back to its table once removed", async () => {
    // Prepare
    const m = merchant();
    const first = request(m);
    const seen: GatewayChargeRequest[] = [];
    useSandboxOutcomeSource((r) => {
      seen.push(r);
      return { status: 'declined', declineCode: 'do_not_honor', network: 'visa', networkCode: '46' };
    });
    // Act
    const declined = await sandboxGateway.charge(first, undefined);
    useSandboxOutcomeSource(() => ({ status: 'succeeded' }));
    const again = await sandboxGateway.charge(first, undefined);
    const next = await sandboxGateway.charge(request(m, { attemptNumber: 2, idempotencyKey: `${first.idempotencyKey}-2` }), undefined);
    useSandboxOutcomeSource(undefined);
    // processing_error succeeds at once by the sandbox's own table.
    const byTable = await sandboxGateway.charge(request(m, { attemptNumber: 1, idempotencyKey: `${first.idempotencyKey}-3` }), undefined);
    // Assess
    expect(seen).toEqual([first]);
    expect(declined).toEqual({ status: 'declined', declineCode: 'do_not_honor', network: 'visa', networkCode: '46' });
    expect(again).toEqual(declined);
    expect(next).toEqual({ status: 'succeeded', providerChargeId: `sbx_ch_${first.idempotencyKey}-2` });
    expect(byTable).toEqual({ status: 'succeeded', providerChargeId: `sbx_ch_${first.idempotencyKey}-3` });
    expect((await sandboxChargesOf(m, first.paymentId)).map((c) => c.outcome?.status)).toEqual(['declined', 'succeeded', 'succeeded']);
  });
});
