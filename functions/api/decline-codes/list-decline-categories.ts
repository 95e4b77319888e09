import { listCategories } from '#core/decline-codes/index';
import { envelope } from '#api/pipeline/responses';
import { defineOperation } from '#api/operation';
import { listDeclineCategoriesSchemas } from './schemas';

/** GET /api/v1/decline-codes/categories: the four categories with their subcategories (the literal path wins over /{code}). */
export const listDeclineCategories = defineOperation({ auth: 'api_key', schemas: listDeclineCategoriesSchemas }, async ({ principal, requestId }) => {
  const data = listCategories().map((record) => ({
    category: record.category,
    description: record.description,
    recommended_strategy: record.recommended_strategy,
    expected_recovery_rate: record.expected_recovery_rate,
    subcategories: [...record.subcategories],
  }));
  return { body: envelope(data, requestId, principal.merchantId) };
});
