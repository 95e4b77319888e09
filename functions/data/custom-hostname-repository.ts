import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { CertificateStatus, HostnameStatus } from '#core/custom-hostnames';
import { MAX_CUSTOM_HOSTNAMES } from '#core/custom-hostnames';
import type { CertificateValidationRecord } from '#core/custom-hostname-ports';
import { ResourceNotFoundError, StateConflictError, ValidationError } from '#core/errors';
import { env } from '#shared/env';
import { documentClient } from './client';
import { cappedIncrement, failedConditionAt } from './transact';
import type { TransactItem } from './customer-repository';
import { type DueEntry, findDueEntries } from './due-index';
import { customHostnameBodyOf, customHostnameClaimEntity, customHostnameEntity } from './entities/custom-hostname';
import { conditions, customHostnameDueKeys, customHostnameKeys, HOSTNAME_DUE_SHARDS } from './keys';

/** A certificate validation record with what DNS answered for it at the last check (null before one). */
export type CheckedValidationRecord = CertificateValidationRecord & { readonly found: readonly string[] | null };

export interface CustomHostnameRecord {
  /** `chn_<body>`. */
  readonly id: string;
  readonly merchant_id: string;
  /** Lower case, no trailing dot. */
  readonly hostname: string;
  readonly status: HostnameStatus;
  /** The name the hostname's CNAME must point at (CUSTOM_HOST when it was provisioned). */
  readonly cname_target: string;
  /** The value of the `_recovery-challenge.<hostname>` TXT record. Public by nature (it is published in DNS). */
  readonly ownership_token: string;
  /** When the CNAME and TXT were first both right; the TXT may be removed after that. */
  readonly ownership_verified_at: string | null;
  readonly certificate: {
    readonly status: CertificateStatus;
    /** The certificate port's id (an ACM ARN on AWS); null until requested. */
    readonly id: string | null;
    readonly validation_records: readonly CheckedValidationRecord[];
    readonly issued_at: string | null;
  };
  /** The CDN association (a CloudFront distribution tenant on AWS); null until the certificate is issued. */
  readonly cdn_tenant_id: string | null;
  /** What the last check found: the hostname's CNAME targets and the challenge's TXT values (null before the first check). */
  readonly found: { readonly cname: readonly string[] | null; readonly txt: readonly string[] | null };
  readonly verification_errors: readonly string[];
  /** DNS checks made so far (the backoff's n). */
  readonly checks: number;
  /** When the hostname last became pending (provisioned, or revived from moved or blocked by verify): its 7 days count from here. */
  readonly pending_since: string;
  /** Bumped by every write; each write is conditional on the version it read. */
  readonly version: number;
  readonly created_at: string;
  readonly updated_at: string;
  readonly last_checked_at: string | null;
  readonly next_check_at: string | null;
  readonly activated_at: string | null;
  readonly deleted_at: string | null;
}

/** How long a deleted hostname's record still answers GET status. */
const DELETED_RETENTION_SECONDS = 30 * 24 * 3600;

export class CustomHostnameNotFoundError extends ResourceNotFoundError {}

const notFound = (id: string) => new CustomHostnameNotFoundError(`No custom hostname ${id}`, { param: 'id' });

/**
 * Stores a new hostname with its claim and the merchant's count, in one transaction: 422
 * `param: hostname` past MAX_CUSTOM_HOSTNAMES, 409 when the hostname is claimed (by this merchant
 * or another; which one is not said).
 */
export async function createCustomHostname(record: CustomHostnameRecord): Promise<void> {
  try {
    await documentClient.send(
      new TransactWriteCommand({
        TransactItems: [
          cappedIncrement(customHostnameKeys.count(record.merchant_id), 'hostname_count', MAX_CUSTOM_HOSTNAMES),
          {
            Put: {
              TableName: env.TABLE_NAME,
              Item: customHostnameClaimEntity.toItem({ hostname: record.hostname, merchant_id: record.merchant_id, hostname_id: record.id }),
              ConditionExpression: conditions.absent,
            },
          },
          { Put: { TableName: env.TABLE_NAME, Item: customHostnameEntity.toItem(record), ConditionExpression: conditions.absent } },
        ],
      }),
    );
  } catch (error) {
    const failed = failedConditionAt(error);
    if (failed === 0) {
      throw new ValidationError(`A merchant has at most ${MAX_CUSTOM_HOSTNAMES} custom hostnames: delete one first`, { param: 'hostname', cause: error });
    }
    if (failed === 1) throw new StateConflictError(`${record.hostname} is already provisioned`, { param: 'hostname', cause: error });
    throw error;
  }
}

/** The hostname (strongly consistent); 404 when absent or not this merchant's. */
export async function getCustomHostname(merchantId: string, id: string): Promise<CustomHostnameRecord> {
  const body = customHostnameBodyOf(id);
  if (body === undefined) throw notFound(id);
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: env.TABLE_NAME, Key: customHostnameKeys.hostname(merchantId, body), ConsistentRead: true }),
  );
  if (Item === undefined) throw notFound(id);
  return customHostnameEntity.fromItem(Item);
}

/** The hostname record that holds the claim of `hostname`, or undefined when nobody holds it. */
export async function findClaimedHostname(hostname: string): Promise<CustomHostnameRecord | undefined> {
  const { Item } = await documentClient.send(new GetCommand({ TableName: env.TABLE_NAME, Key: customHostnameKeys.claim(hostname), ConsistentRead: true }));
  if (Item === undefined) return undefined;
  const claim = customHostnameClaimEntity.fromItem(Item);
  return getCustomHostname(claim.merchant_id, claim.hostname_id).catch((error: unknown) => {
    if (error instanceof CustomHostnameNotFoundError) return undefined;
    throw error;
  });
}

/** The Put of `after` over `before`, on the condition that nobody wrote it since `before` was read. */
export function customHostnameWriteItem(before: CustomHostnameRecord, after: CustomHostnameRecord): TransactItem {
  const expiresAt = after.status === 'deleted' ? { expires_at: Math.floor(Date.parse(after.updated_at) / 1000) + DELETED_RETENTION_SECONDS } : {};
  return {
    Put: {
      TableName: env.TABLE_NAME,
      Item: customHostnameEntity.toItem({ ...after, ...expiresAt }),
      ConditionExpression: '#version = :version',
      ExpressionAttributeNames: { '#version': 'version' },
      ExpressionAttributeValues: { ':version': before.version },
    },
  };
}

/** What deleting a hostname writes besides its record: the claim released (if still this hostname's) and the count lowered. */
export function customHostnameReleaseItems(record: CustomHostnameRecord): TransactItem[] {
  return [
    {
      Delete: {
        TableName: env.TABLE_NAME,
        Key: customHostnameKeys.claim(record.hostname),
        ConditionExpression: 'hostname_id = :id',
        ExpressionAttributeValues: { ':id': record.id },
      },
    },
    {
      Update: {
        TableName: env.TABLE_NAME,
        Key: customHostnameKeys.count(record.merchant_id),
        UpdateExpression: 'ADD hostname_count :minus',
        ConditionExpression: 'hostname_count > :zero',
        ExpressionAttributeValues: { ':minus': -1, ':zero': 0 },
      },
    },
  ];
}

/** Hostnames due for a check at `now`, every merchant, oldest first (GSI4 is eventually consistent: re-read before acting). */
export async function findDueCustomHostnames(now: Date, limit: number): Promise<DueEntry[]> {
  return findDueEntries(
    { shards: HOSTNAME_DUE_SHARDS, shardPk: customHostnameDueKeys.shardPk, dueUpTo: customHostnameDueKeys.dueUpTo, parse: customHostnameDueKeys.parse },
    now,
    limit,
  );
}
