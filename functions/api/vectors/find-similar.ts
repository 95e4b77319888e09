import { findSimilarRecoveries } from '#services/vectors';
import { categoryOfCode } from '#core/vectors/recovery-features';
import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { FIND_SIMILAR_DEFAULT_TOP_K, findSimilarSchemas } from './schemas';
import { matchView } from './views';

/**
 * POST /api/v1/vectors/find-similar: the merchant's past recoveries nearest to the body's features,
 * ranked by cosine similarity. top_k defaults to 10 when customer_segment is given (A, where it is
 * required) and to 5 without it (B).
 */
export const findSimilarRecoveriesOperation = defineOperation({ auth: 'api_key', schemas: findSimilarSchemas }, async ({ principal, body, requestId }) => {
  const merchantId = principal.merchantId;
  const topK = body.top_k ?? (body.customer_segment === undefined ? FIND_SIMILAR_DEFAULT_TOP_K.b : FIND_SIMILAR_DEFAULT_TOP_K.a);
  const matches = await findSimilarRecoveries(
    merchantId,
    {
      declineCode: body.decline_code,
      declineCategory: categoryOfCode(body.decline_code, body.psp),
      amount: (body.amount_cents ?? body.amount) as number,
      currency: body.currency,
      segment: body.customer_segment,
      provider: body.psp,
    },
    topK,
    body.outcome === undefined ? undefined : { outcome: body.outcome },
  );
  return { body: envelope({ count: matches.length, matches: matches.map(matchView) }, requestId, merchantId) };
});
