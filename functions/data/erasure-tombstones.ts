import { createHash } from 'node:crypto';
import { BatchGetCommand, DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { normaliseEmail } from '#core/customers';
import { env } from '#shared/env';
import { logger } from '#shared/logger';
import { documentClient } from './client';
import { ERASURE_ENTITY, erasureKeys, type ItemKey } from './keys';

/**
 * Tombstones of erased customers (DESIGN §2c, "Erasure is final"): one item per identity an
 * erased customer was known by, its email and each provider customer id, holding only the
 * SHA-256 of the merchant id, the kind and the value. They are never erased and never expire,
 * so that a provider's late re-delivery (or a merchant's late ingest) of an event for an erased
 * customer is refused instead of creating the customer, a payment or a retry again.
 *
 * What a refusal records: a log line (`event refused: customer erased`, with the merchant, the
 * event type and the kind of identity that matched, never the identity) and a counter on the
 * tombstone that matched (`refused_count`, `last_refused_at`). Nothing else is written.
 */
export type TombstoneKind = 'email' | 'provider_customer_id';

export interface ErasedIdentity {
  /** Normalised (trimmed, lowercased) before hashing, as customers store it. */
  readonly email?: string | null | undefined;
  readonly providerCustomerId?: string | null | undefined;
}

const normalised = (kind: TombstoneKind, value: string): string => (kind === 'email' ? normaliseEmail(value) : value.trim());

/** The hash a tombstone is keyed by: SHA-256 over the merchant id, the kind and the (normalised) value. */
export function tombstoneHash(merchantId: string, kind: TombstoneKind, value: string): string {
  return createHash('sha256')
    .update(`${merchantId}\u0000${kind}\u0000${normalised(kind, value)}`)
    .digest('hex');
}

function tombstonesOf(merchantId: string, identity: ErasedIdentity): Array<{ kind: TombstoneKind; key: ItemKey }> {
  const found: Array<{ kind: TombstoneKind; key: ItemKey }> = [];
  const email = identity.email?.trim();
  if (email) found.push({ kind: 'email', key: erasureKeys.tombstone(merchantId, tombstoneHash(merchantId, 'email', email)) });
  const providerId = identity.providerCustomerId?.trim();
  if (providerId)
    found.push({ kind: 'provider_customer_id', key: erasureKeys.tombstone(merchantId, tombstoneHash(merchantId, 'provider_customer_id', providerId)) });
  return found;
}

/**
 * Writes the tombstones of a customer being erased, one UpdateItem each (a handful per customer):
 * idempotent, so a repeated or resumed erasure keeps the first `erased_at` and the refusals
 * counted so far.
 */
export async function writeTombstones(merchantId: string, identities: readonly ErasedIdentity[], now: Date = new Date()): Promise<void> {
  const byKey = new Map<string, { kind: TombstoneKind; key: ItemKey }>();
  for (const identity of identities) for (const stone of tombstonesOf(merchantId, identity)) byKey.set(stone.key.SK, stone);
  await Promise.all(
    [...byKey.values()].map(({ kind, key }) =>
      documentClient.send(
        new UpdateCommand({
          TableName: env.TABLE_NAME,
          Key: key,
          UpdateExpression: 'SET #entity = :entity, #kind = :kind, erased_at = if_not_exists(erased_at, :now)',
          ExpressionAttributeNames: { '#entity': 'entity', '#kind': 'kind' },
          ExpressionAttributeValues: { ':entity': ERASURE_ENTITY.tombstone, ':kind': kind, ':now': now.toISOString() },
        }),
      ),
    ),
  );
}

/** The kind of the first tombstone an identity matches (one consistent BatchGetItem), or undefined. */
export async function erasedIdentityKind(merchantId: string, identity: ErasedIdentity): Promise<TombstoneKind | undefined> {
  const stones = tombstonesOf(merchantId, identity);
  if (stones.length === 0) return undefined;
  const { Responses } = await documentClient.send(
    new BatchGetCommand({ RequestItems: { [env.TABLE_NAME]: { Keys: stones.map((stone) => stone.key), ConsistentRead: true, ProjectionExpression: 'SK' } } }),
  );
  const present = new Set((Responses?.[env.TABLE_NAME] ?? []).map((item) => item.SK as string));
  return stones.find((stone) => present.has(stone.key.SK))?.kind;
}

/**
 * Whether an event for this identity concerns an erased customer; if so, the refusal is recorded
 * (the log line and the tombstone's counter, see above) and true is returned: the caller then
 * writes nothing and charges nothing.
 *
 * @example if (await refuseIfErased(merchantId, { email, providerCustomerId }, 'payment_failed')) return;
 */
export async function refuseIfErased(merchantId: string, identity: ErasedIdentity, eventType: string, now: Date = new Date()): Promise<boolean> {
  const kind = await erasedIdentityKind(merchantId, identity);
  if (kind === undefined) return false;
  const stone = tombstonesOf(merchantId, identity).find((candidate) => candidate.kind === kind) as { key: ItemKey };
  await documentClient.send(
    new UpdateCommand({
      TableName: env.TABLE_NAME,
      Key: stone.key,
      UpdateExpression: 'ADD refused_count :one SET last_refused_at = :now',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeValues: { ':one': 1, ':now': now.toISOString() },
    }),
  );
  logger.warn('event refused: customer erased', { merchant_id: merchantId, event_type: eventType, matched: kind });
  return true;
}

export interface LiftedTombstone {
  readonly kind: TombstoneKind;
  /** Whether a tombstone for this identity existed (and is now gone). */
  readonly lifted: boolean;
  readonly erased_at: string | null;
  readonly refused_count: number;
  readonly last_refused_at: string | null;
}

/**
 * Lifts the tombstones of an identity (the operator's `admin erasure lift`, for a customer who
 * asked to come back, or an erasure made by mistake): deletes each one the identity matches, so
 * that events for it are accepted again. Erased data does not come back; only what arrives from
 * now on is recorded. Says, per kind of identity given, whether a tombstone was there and what it
 * had refused. Logged without the identity.
 */
export async function liftTombstones(merchantId: string, identity: ErasedIdentity): Promise<LiftedTombstone[]> {
  const lifted = await Promise.all(
    tombstonesOf(merchantId, identity).map(async ({ kind, key }): Promise<LiftedTombstone> => {
      const { Attributes } = await documentClient.send(new DeleteCommand({ TableName: env.TABLE_NAME, Key: key, ReturnValues: 'ALL_OLD' }));
      return {
        kind,
        lifted: Attributes !== undefined,
        erased_at: typeof Attributes?.erased_at === 'string' ? Attributes.erased_at : null,
        refused_count: typeof Attributes?.refused_count === 'number' ? Attributes.refused_count : 0,
        last_refused_at: typeof Attributes?.last_refused_at === 'string' ? Attributes.last_refused_at : null,
      };
    }),
  );
  logger.warn('erasure tombstones lifted', { merchant_id: merchantId, lifted: lifted.filter((stone) => stone.lifted).map((stone) => stone.kind) });
  return lifted;
}
