import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { env } from '#shared/env';
import { ENTITY, type ItemKey } from './keys';

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/**
 * One Update adding deltas to named counters of a counter item (`ADD`, so the item and its
 * counters are created on first use) and setting the attributes that describe it (`SET`; by
 * default its entity, `counters`). Used in transactions: the list counters of templates and
 * suppressions, and every counter and rollup item the table-stream consumer keeps.
 *
 * @example items.push(counterUpdate(templateKeys.counters(merchantId), { templates: 1 }));
 */
export function counterUpdate(
  key: ItemKey,
  deltas: Readonly<Record<string, number>>,
  attributes: Readonly<Record<string, unknown>> = { entity: ENTITY.counters },
): TransactItem {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const sets = Object.entries(attributes).map(([name, value], index) => {
    names[`#a${index}`] = name;
    values[`:a${index}`] = value;
    return `#a${index} = :a${index}`;
  });
  const adds = Object.entries(deltas).map(([name, delta], index) => {
    names[`#c${index}`] = name;
    values[`:c${index}`] = delta;
    return `#c${index} :c${index}`;
  });
  return {
    Update: {
      TableName: env.TABLE_NAME,
      Key: key,
      UpdateExpression: `${sets.length > 0 ? `SET ${sets.join(', ')} ` : ''}ADD ${adds.join(', ')}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}
