import { paginateQuery } from '@aws-sdk/lib-dynamodb';
import type { CustomerRecord } from '#core/customers';
import type { PaymentRecord } from '#core/payments';
import { env } from '#shared/env';
import { documentClient } from './client';
import { customerFromItem } from './customer-repository';
import { ENTITY, internalKeys } from './keys';
import { paymentFromItem } from './payment-repository';

/**
 * What a merchant data export reads: pages of Queries of the merchant's own partition (never a
 * Scan, so never another merchant's items), oldest first. Consistent reads: an export started
 * after a write includes it.
 */
async function* itemsOf(query: ReturnType<typeof internalKeys.payments>, entity: string): AsyncGenerator<Record<string, unknown>> {
  for await (const page of paginateQuery({ client: documentClient, pageSize: 200 }, { TableName: env.TABLE_NAME, ConsistentRead: true, ...query })) {
    for (const item of page.Items ?? []) if (item.entity === entity) yield item;
  }
}

/** The merchant's payments (each also its recovery), oldest first. */
export async function* merchantPayments(merchantId: string): AsyncGenerator<PaymentRecord> {
  for await (const item of itemsOf(internalKeys.payments(merchantId), ENTITY.payment)) yield paymentFromItem(item);
}

/** The merchant's customers, oldest first. */
export async function* merchantCustomers(merchantId: string): AsyncGenerator<CustomerRecord> {
  for await (const item of itemsOf(internalKeys.customers(merchantId), ENTITY.customer)) yield customerFromItem(item);
}
