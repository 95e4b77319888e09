import { getDeclineCodeVariations, listCategories } from '#core/decline-codes/index';
import { ResourceNotFoundError } from '#core/errors';
import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { getDeclineCodeSchemas } from './schemas';
import { declineCodeView } from './views';

const shared = <T>(values: readonly T[]): T | undefined => (values.every((value) => value === values[0]) ? values[0] : undefined);

/**
 * GET /api/v1/decline-codes/{code}: every provider's entry for the code, ignoring case, as
 * `variations`; the category (with A's recommended strategy) and subcategory at the top level when
 * all variations agree on them. 404 when no provider has the code.
 */
export const getDeclineCode = defineOperation({ auth: 'api_key', schemas: getDeclineCodeSchemas }, async ({ params, principal, requestId }) => {
  const variations = getDeclineCodeVariations(params.code);
  if (variations.length === 0) throw new ResourceNotFoundError(`No provider has the decline code "${params.code}".`);
  const category = shared(variations.map((record) => record.category));
  const subcategory = shared(variations.map((record) => record.subcategory));
  const strategy = category === undefined ? undefined : listCategories().find((record) => record.category === category)?.recommended_strategy;
  const data = {
    code: shared(variations.map((record) => record.code)) ?? params.code.trim().toLowerCase(),
    ...(category === undefined ? {} : { category }),
    ...(subcategory === undefined ? {} : { subcategory }),
    ...(strategy === undefined ? {} : { recommended_strategy: strategy }),
    variations: variations.map(declineCodeView),
  };
  return { body: envelope(data, requestId, principal.merchantId) };
});
