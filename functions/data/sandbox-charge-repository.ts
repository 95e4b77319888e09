import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, paginateQuery, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { attemptIdempotencyKeyPrefix, type GatewayOutcome } from '#core/payment-gateway';
import { env } from '#shared/env';
import { documentClient } from './client';
import { sandboxChargeEntity } from './entities/sandbox-charge';
import { type ItemKey, queries, retryKeys } from './keys';

/**
 * The sandbox gateway's own record of what it was asked, kept as a provider keeps its
 * idempotency keys: one item per key, the first answer stored and returned to every later call
 * with the same key (`calls` counts them). `errored` marks a key whose first call the scenario
 * answered with a gateway error. Kept 30 days (TTL).
 */
export interface SandboxCharge {
  readonly idempotency_key: string;
  readonly payment_id: string;
  readonly state: 'answered' | 'errored';
  readonly outcome: GatewayOutcome | null;
  readonly amount: number;
  readonly currency: string;
  readonly calls: number;
  readonly created_at: string;
}

const RETENTION_SECONDS = 30 * 24 * 3600;

export async function getSandboxCharge(merchantId: string, idempotencyKey: string): Promise<SandboxCharge | undefined> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: env.TABLE_NAME, Key: retryKeys.sandboxCharge(merchantId, idempotencyKey), ConsistentRead: true }),
  );
  return Item === undefined ? undefined : sandboxChargeEntity.fromItem(Item);
}

/** Counts one more call with a key already answered. */
export async function recordRepeatedCall(merchantId: string, idempotencyKey: string): Promise<void> {
  await documentClient.send(
    new UpdateCommand({
      TableName: env.TABLE_NAME,
      Key: retryKeys.sandboxCharge(merchantId, idempotencyKey),
      UpdateExpression: 'ADD calls :one',
      ExpressionAttributeValues: { ':one': 1 },
    }),
  );
}

/**
 * Stores the answer to a key, if no other call stored one first (then that one is returned, as
 * a provider answers concurrent calls with one key). `previous` is the errored record this
 * answer replaces, if any.
 */
export async function storeSandboxAnswer(
  merchantId: string,
  charge: Omit<SandboxCharge, 'calls' | 'created_at'>,
  previous: SandboxCharge | undefined,
  now: Date,
): Promise<SandboxCharge> {
  const item: SandboxCharge = { ...charge, calls: (previous?.calls ?? 0) + 1, created_at: previous?.created_at ?? now.toISOString() };
  try {
    await documentClient.send(
      new PutCommand({
        TableName: env.TABLE_NAME,
        Item: sandboxChargeEntity.toItem({ ...item, expires_at: Math.floor(now.getTime() / 1000) + RETENTION_SECONDS }, { merchant_id: merchantId }),
        ...(previous === undefined
          ? { ConditionExpression: 'attribute_not_exists(PK)' }
          : {
              ConditionExpression: '#state = :errored',
              ExpressionAttributeNames: { '#state': 'state' },
              ExpressionAttributeValues: { ':errored': 'errored' },
            }),
      }),
    );
    return item;
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
    const winner = await getSandboxCharge(merchantId, charge.idempotency_key);
    if (winner === undefined) throw error;
    await recordRepeatedCall(merchantId, charge.idempotency_key);
    return winner;
  }
}

/** The sandbox's records for a payment's attempts (tests and the bench count charges with it). */
export async function sandboxChargesOf(merchantId: string, paymentId: string): Promise<SandboxCharge[]> {
  const { Items } = await documentClient.send(
    new QueryCommand({
      TableName: env.TABLE_NAME,
      ConsistentRead: true,
      ...queries.partitionPrefix(retryKeys.sandboxChargePrefix(merchantId, attemptIdempotencyKeyPrefix(paymentId))),
    }),
  );
  return (Items ?? []).map((item) => sandboxChargeEntity.fromItem(item));
}

/**
 * The keys of the sandbox's records for a payment's attempts, for erasure: they hold the payment
 * id and amount, so they go with the payment (one Query on the payment's key prefix).
 */
export async function sandboxChargeKeysOf(merchantId: string, paymentId: string): Promise<ItemKey[]> {
  const found: ItemKey[] = [];
  const input = {
    TableName: env.TABLE_NAME,
    ConsistentRead: true,
    ProjectionExpression: '#pk, #sk',
    ...queries.partitionPrefix(retryKeys.sandboxChargePrefix(merchantId, attemptIdempotencyKeyPrefix(paymentId))),
  };
  for await (const page of paginateQuery({ client: documentClient }, input)) {
    for (const item of page.Items ?? []) found.push({ PK: item.PK as string, SK: item.SK as string });
  }
  return found;
}
