import { GetCommand, paginateQuery } from '@aws-sdk/lib-dynamodb';
import { builtInTemplate, builtInTemplates } from '#core/templates/built-in';
import type { TemplateRecord } from '#core/templates/template';
import type { Pagination } from '#api/pipeline/paging';
import { env } from '#shared/env';
import { documentClient } from './client';
import { counterUpdate } from './counter-update';
import { templateBodyOf, templateEntity } from './entities/template';
import { conditions, queries, templateKeys } from './keys';
import { transactOptimistically } from './transact';

interface Stored {
  readonly template: TemplateRecord;
  readonly version: number;
}

async function readStored(merchantId: string, id: string): Promise<Stored | undefined> {
  const body = templateBodyOf(id);
  if (body === undefined) return undefined;
  const { Item } = await documentClient.send(new GetCommand({ TableName: env.TABLE_NAME, Key: templateKeys.template(merchantId, body), ConsistentRead: true }));
  if (Item === undefined) return undefined;
  return { template: templateEntity.fromItem(Item), version: Number(Item.version ?? 0) };
}

/**
 * A template the merchant may use: a built-in id first (the same for every merchant), then the
 * merchant's own. Another merchant's id is undefined, as an absent one (the key starts with the
 * merchant).
 */
export async function getTemplate(merchantId: string, id: string): Promise<TemplateRecord | undefined> {
  return builtInTemplate(id) ?? (await readStored(merchantId, id))?.template;
}

/** Whether the merchant may use the template id (campaign steps, A/B variants). */
export async function templateExists(merchantId: string, id: string): Promise<boolean> {
  return (await getTemplate(merchantId, id)) !== undefined;
}

/** Saves a merchant's new template and counts it, in one transaction. */
export async function createTemplate(template: TemplateRecord): Promise<TemplateRecord> {
  const merchantId = template.merchant_id as string;
  await transactOptimistically(async () => ({
    result: undefined,
    items: [
      { Put: { TableName: env.TABLE_NAME, Item: templateEntity.toItem({ ...template, version: 1 }), ConditionExpression: conditions.absent } },
      counterUpdate(templateKeys.counters(merchantId), { templates: 1 }),
    ],
  }));
  return template;
}

/**
 * Changes a merchant's template: `change` gets the stored template (fresh on every attempt) and
 * returns the new one, or throws (a validation error); the write is guarded by the version read,
 * so concurrent updates never lose one. Undefined when the merchant has no such template.
 */
export async function updateTemplate(
  merchantId: string,
  id: string,
  change: (template: TemplateRecord) => TemplateRecord,
): Promise<TemplateRecord | undefined> {
  return transactOptimistically(async () => {
    const stored = await readStored(merchantId, id);
    if (stored === undefined) return { items: [], result: undefined };
    const next = change(stored.template);
    return {
      result: next,
      items: [
        {
          Put: {
            TableName: env.TABLE_NAME,
            Item: templateEntity.toItem({ ...next, version: stored.version + 1 }),
            ConditionExpression: 'version = :version',
            ExpressionAttributeValues: { ':version': stored.version },
          },
        },
      ],
    };
  });
}

/** Deletes a merchant's template and uncounts it; false when there was none. */
export async function deleteTemplate(merchantId: string, id: string): Promise<boolean> {
  return transactOptimistically(async () => {
    const stored = await readStored(merchantId, id);
    if (stored === undefined) return { items: [], result: false };
    return {
      result: true,
      items: [
        {
          Delete: {
            TableName: env.TABLE_NAME,
            Key: templateEntity.key({ ...stored.template, version: stored.version }),
            ConditionExpression: 'version = :version',
            ExpressionAttributeValues: { ':version': stored.version },
          },
        },
        counterUpdate(templateKeys.counters(merchantId), { templates: -1 }),
      ],
    };
  });
}

async function merchantTemplateCount(merchantId: string): Promise<number> {
  const { Item } = await documentClient.send(new GetCommand({ TableName: env.TABLE_NAME, Key: templateKeys.counters(merchantId) }));
  return Math.max(0, Number(Item?.templates ?? 0));
}

/**
 * One page of the templates a merchant may use: its own, newest first (one Query of its
 * partition, reading only up to the page), then the built-ins in their fixed order. `total` is
 * the merchant's template counter plus the built-ins.
 */
export async function listTemplates(merchantId: string, page: number, perPage: number): Promise<{ templates: TemplateRecord[]; pagination: Pagination }> {
  const builtIns = [...builtInTemplates().values()];
  const own = await merchantTemplateCount(merchantId);
  const total = own + builtIns.length;
  const offset = (page - 1) * perPage;
  const templates: TemplateRecord[] = [];
  if (offset < own) {
    let seen = 0;
    const input = { TableName: env.TABLE_NAME, ...queries.partitionPrefix(templateKeys.templatePrefix(merchantId)), ScanIndexForward: false };
    for await (const result of paginateQuery({ client: documentClient, pageSize: Math.min(1000, offset + perPage) }, input)) {
      for (const item of result.Items ?? []) {
        if (seen >= offset && templates.length < perPage) templates.push(templateEntity.fromItem(item));
        seen += 1;
      }
      if (templates.length >= perPage) break;
    }
  }
  const builtInStart = Math.max(0, offset - own);
  templates.push(...builtIns.slice(builtInStart, builtInStart + perPage - templates.length));
  return { templates, pagination: { total, page, per_page: perPage, total_pages: Math.ceil(total / perPage) } };
}
