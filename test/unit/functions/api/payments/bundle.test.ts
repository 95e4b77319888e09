import { build } from 'esbuild';

/**
 * The payments Lambda charges nothing: POST /payments/{id}/retry hands the attempt to the retry
 * executor (services/request-retry.ts), the one function that bundles the payment gateways
 * (DESIGN §2, Lambda bundles). An esbuild bundle of the group's handler, as CDK builds it, must
 * contain neither the gateways nor the executor's jobs.
 */
describe('the payments group bundle', () => {
  it('contains no payment gateway and no job', async () => {
    // Act
    const result = await build({ entryPoints: ['functions/api/payments/handler.ts'], bundle: true, platform: 'node', format: 'cjs', write: false, metafile: true, logLevel: 'silent' });
    // Assess
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs).toContain('functions/api/payments/retry-payment.ts');
    expect(inputs).toContain('functions/services/request-retry.ts');
    expect(inputs.filter((input) => input.startsWith('functions/adapters/payment-gateways/') || input.startsWith('functions/jobs/') || input.includes('node_modules/stripe/'))).toEqual([]);
  }, 60_000);
});
