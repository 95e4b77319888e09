import { paginateQuery } from '@aws-sdk/lib-dynamodb';
import { OPEN_STATUSES, type PaymentRecord } from '#core/payments';
import { env } from '#shared/env';
import { documentClient } from './client';
import { paymentKeys } from './keys';
import { paymentFromItem } from './payment-repository';
import type { QueryInput } from './query-reads';

/**
 * Every open payment of the merchant (pending, retrying, paused): one Query per status of the
 * payments-by-status index (GSI1, keys.ts), eventually consistent. `expiredCardOnly` keeps those
 * declined for an expired card (decline subcategory `expired`) with a filter on the same Query.
 * The cost grows with the merchant's open payments (what is at risk now), never with the
 * recovered and terminal ones.
 */
export async function openPayments(merchantId: string, options: { readonly expiredCardOnly?: boolean } = {}): Promise<PaymentRecord[]> {
  const pages = await Promise.all(
    OPEN_STATUSES.map(async (status) => {
      const input: QueryInput = {
        TableName: env.TABLE_NAME,
        IndexName: 'GSI1',
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': 'GSI1PK', ...(options.expiredCardOnly ? { '#sub': 'decline_subcategory' } : {}) },
        ExpressionAttributeValues: { ':pk': paymentKeys.statusIndexPk(merchantId, status), ...(options.expiredCardOnly ? { ':expired': 'expired' } : {}) },
        ...(options.expiredCardOnly ? { FilterExpression: '#sub = :expired' } : {}),
      };
      const payments: PaymentRecord[] = [];
      for await (const page of paginateQuery({ client: documentClient, pageSize: 1000 }, input)) payments.push(...(page.Items ?? []).map(paymentFromItem));
      return payments;
    }),
  );
  return pages.flat();
}
