import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, paginateQuery, PutCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '#data/client';
import { ENTITY, messageKeys, queries } from '#data/keys';
import { InternalError } from '#core/errors';
import { messageBodyOf } from '#core/messages';
import { env } from '#shared/env';
import type { EmailSender, OutgoingEmail } from './email-sender';

/** An email as the local outbox keeps it. */
export interface OutboxEmail {
  readonly id: string;
  readonly merchant_id: string;
  readonly customer_id: string;
  readonly message_id: string;
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  /** The HTML part and extra headers, when the email had them. */
  readonly html?: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** The sender address when it was the merchant's domain's (EMAIL_FROM otherwise). */
  readonly from_address?: string;
  readonly created_at: string;
}

const outboxIdFor = (messageBody: string): string => `obx_${messageBody}`;

/**
 * The local EmailSender: "sending" stores the email as an OUTBOX item of the table, where
 * developers and tests read it (`listOutboxEmails`), like a provider's test mode. One item per
 * message id, written only if absent, so a second send of one message stores nothing new.
 */
export const outboxEmailSender: EmailSender = {
  name: 'outbox',
  async send(email: OutgoingEmail) {
    const body = messageBodyOf(email.messageId);
    if (body === undefined) throw new InternalError(`Outbox emails are keyed by a message id, not "${email.messageId}"`);
    const key = messageKeys.outboxEmail(email.merchantId, body);
    const stored: OutboxEmail = {
      id: outboxIdFor(body),
      merchant_id: email.merchantId,
      customer_id: email.customerId,
      message_id: email.messageId,
      to: email.to,
      subject: email.subject,
      text: email.text,
      ...(email.html === undefined ? {} : { html: email.html }),
      ...(email.headers === undefined ? {} : { headers: email.headers }),
      ...(email.fromAddress === undefined ? {} : { from_address: email.fromAddress }),
      created_at: new Date().toISOString(),
    };
    try {
      await documentClient.send(
        new PutCommand({
          TableName: env.TABLE_NAME,
          Item: { ...key, entity: ENTITY.outboxEmail, ...stored, ...messageKeys.customerData(email.merchantId, email.customerId, key.SK) },
          ConditionExpression: 'attribute_not_exists(PK)',
        }),
      );
    } catch (error) {
      // Already in the outbox: this message was sent before; report that send.
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
    return { provider: 'outbox', providerMessageId: stored.id };
  },
};

/** The outbox email of one message, if it was sent. */
export async function getOutboxEmail(merchantId: string, messageId: string): Promise<OutboxEmail | undefined> {
  const body = messageBodyOf(messageId);
  if (body === undefined) return undefined;
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: env.TABLE_NAME, Key: messageKeys.outboxEmail(merchantId, body), ConsistentRead: true }),
  );
  if (Item === undefined) return undefined;
  const { PK: _pk, SK: _sk, entity: _entity, GSI2PK: _1, GSI2SK: _2, ...email } = Item;
  return email as OutboxEmail;
}

/** The merchant's outbox, oldest message first (local inspection and tests). */
export async function listOutboxEmails(merchantId: string): Promise<OutboxEmail[]> {
  const emails: OutboxEmail[] = [];
  const input = { TableName: env.TABLE_NAME, ...queries.partitionPrefix(messageKeys.outboxPrefix(merchantId)) };
  for await (const page of paginateQuery({ client: documentClient }, input)) {
    for (const item of page.Items ?? []) {
      const { PK: _pk, SK: _sk, entity: _entity, GSI2PK: _1, GSI2SK: _2, ...email } = item;
      emails.push(email as OutboxEmail);
    }
  }
  return emails;
}

export interface RecentOutboxQuery {
  /** Only emails to this address (compared without case). */
  readonly to?: string;
  /** At most this many. */
  readonly limit: number;
}

/** The merchant's most recent outbox emails, newest first (operator CLI: `outbox list`). */
export async function listRecentOutboxEmails(merchantId: string, query: RecentOutboxQuery): Promise<OutboxEmail[]> {
  const emails: OutboxEmail[] = [];
  const to = query.to?.trim().toLowerCase();
  const input = { TableName: env.TABLE_NAME, ...queries.partitionPrefix(messageKeys.outboxPrefix(merchantId)), ScanIndexForward: false };
  for await (const page of paginateQuery({ client: documentClient, pageSize: Math.min(Math.max(query.limit, 25), 1000) }, input)) {
    for (const item of page.Items ?? []) {
      const { PK: _pk, SK: _sk, entity: _entity, GSI2PK: _1, GSI2SK: _2, ...email } = item;
      if (to !== undefined && String(email.to).toLowerCase() !== to) continue;
      emails.push(email as OutboxEmail);
      if (emails.length >= query.limit) return emails;
    }
  }
  return emails;
}
