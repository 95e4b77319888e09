import { embedRecovery } from '#services/vectors';
import { categoryOfCode } from '#core/vectors/recovery-features';
import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { embedEventSchemas } from './schemas';

/**
 * POST /api/v1/vectors/embed-event: A's body (outcome, recovery_strategy) or B's
 * (recovery_outcome; strategy `none`). One write: the vector replaces any stored under the id.
 */
export const embedRecoveryEvent = defineOperation({ auth: 'api_key', schemas: embedEventSchemas }, async ({ principal, body, requestId }) => {
  const merchantId = principal.merchantId;
  const outcome = body.outcome ?? (body.recovery_outcome === 'recovered' ? 'recovered' : 'failed');
  const strategy = body.recovery_strategy ?? 'none';
  await embedRecovery(
    merchantId,
    body.id,
    {
      declineCode: body.decline_code,
      declineCategory: categoryOfCode(body.decline_code, body.psp),
      amount: (body.amount_cents ?? body.amount) as number,
      currency: body.currency,
      segment: body.customer_segment,
      strategy,
      provider: body.psp,
      failedAt: body.failed_at === undefined ? undefined : new Date(body.failed_at),
    },
    { outcome, strategy, decline_code: body.decline_code, customer_id: body.customer_id ?? null, failed_at: body.failed_at ?? null },
  );
  return { body: envelope({ embedded: true, id: body.id, merchant_id: merchantId }, requestId, merchantId) };
});
