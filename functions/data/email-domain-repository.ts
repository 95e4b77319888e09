import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, paginateQuery, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { DkimStatus, EmailDomainKind, EmailDomainStatus, MailFromStatus } from '#core/email-domains';
import { ResourceNotFoundError, StateConflictError } from '#core/errors';
import { env } from '#shared/env';
import { documentClient } from './client';
import type { TransactItem } from './customer-repository';
import { emailDomainBodyOf, emailDomainEntity } from './entities/email-domain';
import { EMAIL_DOMAIN_ENTITY, emailDomainKeys } from './keys';

/** A merchant's sending domain (docs/email-domains.md). */
export interface EmailDomainRecord {
  readonly id: string;
  readonly merchant_id: string;
  /** Lower case, no trailing dot. */
  readonly domain: string;
  readonly kind: EmailDomainKind;
  readonly status: EmailDomainStatus;
  /** Easy DKIM tokens (custom domains); empty for managed ones, which the service domain's DKIM covers. */
  readonly dkim_tokens: readonly string[];
  /** `bounce.<domain>` for custom domains; null for managed ones. */
  readonly mail_from_domain: string | null;
  /** SES's words at the last check. */
  readonly dkim_status: DkimStatus;
  readonly mail_from_status: MailFromStatus | null;
  readonly verified_at: string | null;
  readonly failed_at: string | null;
  readonly failure_reason: string | null;
  readonly last_checked_at: string | null;
  /** Today's send cap while warming up (set by the daily task); null once uncapped, and for managed domains. */
  readonly daily_cap: number | null;
  /** The warm-up day the cap is of (0 = the day of verification); null when not warming up. */
  readonly warm_up_day: number | null;
  readonly created_at: string;
  readonly updated_at: string;
  /** Incremented by every change; each write is conditional on the version read. */
  readonly version: number;
}

export class EmailDomainNotFoundError extends ResourceNotFoundError {}

const TABLE = () => env.TABLE_NAME;
const SENT_COUNTER_TTL_SECONDS = 3 * 86_400;

function keyOf(merchantId: string, id: string) {
  const body = emailDomainBodyOf(id);
  if (body === undefined) throw new EmailDomainNotFoundError(`No email domain ${id}`, { param: 'id' });
  return emailDomainKeys.domain(merchantId, body);
}

export async function getEmailDomain(merchantId: string, id: string): Promise<EmailDomainRecord> {
  const { Item } = await documentClient.send(new GetCommand({ TableName: TABLE(), Key: keyOf(merchantId, id), ConsistentRead: true }));
  if (Item === undefined) throw new EmailDomainNotFoundError(`No email domain ${id}`, { param: 'id' });
  return emailDomainEntity.fromItem(Item);
}

/** The merchant's domains (at most one of each kind), oldest first. */
export async function listEmailDomains(merchantId: string, consistent = true): Promise<EmailDomainRecord[]> {
  const { Items } = await documentClient.send(new QueryCommand({ TableName: TABLE(), ...emailDomainKeys.domains(merchantId), ConsistentRead: consistent }));
  return (Items ?? []).map((item) => emailDomainEntity.fromItem(item));
}

/** What createEmailDomain did: `created`, or why not: the merchant has a domain of that kind (`slot_taken`), or another merchant holds the name (`claimed`). */
export type EmailDomainCreation = 'created' | 'slot_taken' | 'claimed';

/**
 * Stores a new domain with its merchant's slot of that kind and the service-wide claim of its
 * name, in one transaction: nothing is written unless all three are free.
 */
export async function createEmailDomain(record: EmailDomainRecord): Promise<EmailDomainCreation> {
  try {
    await documentClient.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: TABLE(),
              Item: { ...emailDomainKeys.slot(record.merchant_id, record.kind), entity: EMAIL_DOMAIN_ENTITY.slot, domain_id: record.id, domain: record.domain },
              ConditionExpression: 'attribute_not_exists(PK)',
            },
          },
          {
            Put: {
              TableName: TABLE(),
              Item: {
                ...emailDomainKeys.claim(record.domain),
                entity: EMAIL_DOMAIN_ENTITY.claim,
                merchant_id: record.merchant_id,
                domain_id: record.id,
                claimed_at: record.created_at,
              },
              ConditionExpression: 'attribute_not_exists(PK)',
            },
          },
          { Put: { TableName: TABLE(), Item: emailDomainEntity.toItem(record), ConditionExpression: 'attribute_not_exists(PK)' } },
        ],
      }),
    );
    return 'created';
  } catch (error) {
    if (!(error instanceof TransactionCanceledException)) throw error;
    const [slot, claim] = error.CancellationReasons ?? [];
    if (slot?.Code === 'ConditionalCheckFailed') return 'slot_taken';
    if (claim?.Code === 'ConditionalCheckFailed') return 'claimed';
    throw error;
  }
}

/** The merchant's domain of a kind, if it has one. */
export async function getEmailDomainOfKind(merchantId: string, kind: EmailDomainKind): Promise<EmailDomainRecord | undefined> {
  const { Item } = await documentClient.send(new GetCommand({ TableName: TABLE(), Key: emailDomainKeys.slot(merchantId, kind), ConsistentRead: true }));
  if (Item === undefined) return undefined;
  try {
    return await getEmailDomain(merchantId, String(Item.domain_id));
  } catch (error) {
    if (error instanceof EmailDomainNotFoundError) return undefined;
    throw error;
  }
}

/** Replaces a domain on the condition that it is still the version read, with `also` (the outbox item announcing it) in the same transaction; 409 when it changed meanwhile (or is gone). */
export async function saveEmailDomain(before: EmailDomainRecord, after: EmailDomainRecord, also: readonly TransactItem[] = []): Promise<void> {
  try {
    await documentClient.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: TABLE(),
              Item: emailDomainEntity.toItem({ ...after, version: before.version + 1 }),
              ConditionExpression: 'version = :version',
              ExpressionAttributeValues: { ':version': before.version },
            },
          },
          ...also,
        ],
      }),
    );
  } catch (error) {
    if (error instanceof TransactionCanceledException) throw new StateConflictError(`Email domain ${before.id} changed meanwhile; retry`, { cause: error });
    throw error;
  }
}

/**
 * Deletes a domain, frees its merchant's slot and (with `releaseClaim`: the merchant still holds
 * the name) releases the claim on its name, together; 404 when it is gone already.
 */
export async function deleteEmailDomain(record: EmailDomainRecord, releaseClaim: boolean): Promise<void> {
  try {
    await documentClient.send(
      new TransactWriteCommand({
        TransactItems: [
          { Delete: { TableName: TABLE(), Key: keyOf(record.merchant_id, record.id), ConditionExpression: 'attribute_exists(PK)' } },
          {
            Delete: {
              TableName: TABLE(),
              Key: emailDomainKeys.slot(record.merchant_id, record.kind),
              ConditionExpression: 'attribute_not_exists(PK) OR domain_id = :id',
              ExpressionAttributeValues: { ':id': record.id },
            },
          },
          ...(releaseClaim ? [claimReleaseItem(record)] : []),
        ],
      }),
    );
  } catch (error) {
    if (error instanceof TransactionCanceledException) throw new EmailDomainNotFoundError(`No email domain ${record.id}`, { param: 'id', cause: error });
    throw error;
  }
}

async function fromIndex(query: ReturnType<typeof emailDomainKeys.pending>): Promise<EmailDomainRecord[]> {
  const found: EmailDomainRecord[] = [];
  for await (const page of paginateQuery({ client: documentClient }, { TableName: TABLE(), ...query })) {
    for (const item of page.Items ?? []) found.push(emailDomainEntity.fromItem(item));
  }
  return found;
}

/** Every pending domain of every merchant, oldest first (the daily re-check; an index, never a Scan). */
export const pendingEmailDomains = (): Promise<EmailDomainRecord[]> => fromIndex(emailDomainKeys.pending());

/** Every verified domain still under a warm-up cap (the daily warm-up step). */
export const warmingEmailDomains = (): Promise<EmailDomainRecord[]> => fromIndex(emailDomainKeys.warming());

/**
 * Counts one send from a domain on a UTC day, unless the day's count has reached `cap` (null: no
 * cap): true when counted (the email may go), false when the cap is reached (it waits for the next day).
 */
export async function reserveDomainSend(record: EmailDomainRecord, day: string, cap: number | null, now: Date): Promise<boolean> {
  try {
    await documentClient.send(
      new UpdateCommand({
        TableName: TABLE(),
        Key: emailDomainKeys.sentOn(record.merchant_id, emailDomainBodyOf(record.id) as string, day),
        UpdateExpression: 'ADD sent :one SET entity = :entity, expires_at = :expires',
        ...(cap === null ? {} : { ConditionExpression: 'attribute_not_exists(sent) OR sent < :cap' }),
        ExpressionAttributeValues: {
          ':one': 1,
          ...(cap === null ? {} : { ':cap': cap }),
          ':entity': EMAIL_DOMAIN_ENTITY.sent,
          ':expires': Math.floor(now.getTime() / 1000) + SENT_COUNTER_TTL_SECONDS,
        },
      }),
    );
    return true;
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException') return false;
    throw error;
  }
}

/** How many emails went from a domain on a UTC day (counted by reserveDomainSend). */
export async function domainSendsOn(record: EmailDomainRecord, day: string): Promise<number> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: TABLE(), Key: emailDomainKeys.sentOn(record.merchant_id, emailDomainBodyOf(record.id) as string, day), ConsistentRead: true }),
  );
  return typeof Item?.sent === 'number' ? Item.sent : 0;
}

/** The Delete of a domain's claim (in the transaction that fails or deletes the domain): only while this merchant holds it. */
export function claimReleaseItem(record: EmailDomainRecord): TransactItem {
  return {
    Delete: {
      TableName: TABLE(),
      Key: emailDomainKeys.claim(record.domain),
      ConditionExpression: 'attribute_not_exists(PK) OR merchant_id = :merchant',
      ExpressionAttributeValues: { ':merchant': record.merchant_id },
    },
  };
}

/** The merchant holding a domain name, if one does. */
export async function emailDomainClaimHolder(domain: string): Promise<string | undefined> {
  const { Item } = await documentClient.send(new GetCommand({ TableName: TABLE(), Key: emailDomainKeys.claim(domain), ConsistentRead: true }));
  return Item === undefined ? undefined : String(Item.merchant_id);
}
