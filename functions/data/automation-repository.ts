import { createHash } from 'node:crypto';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, paginateQuery, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { ValidationError } from '#core/errors';
import { idBody, timeOrderedId } from '#core/ids';
import { catalogueEntry, namesOf } from '#core/webhooks/events';
import { env } from '#shared/env';
import { documentClient } from './client';
import { AUTOMATION_ENTITY, automationKeys, queries } from './keys';

/**
 * REST-hook subscriptions of automation platforms (keys.ts `automationKeys`): one item per
 * (event type, target URL) of a merchant, under the catalogue's canonical name of the type, so a
 * dispatcher finds a merchant's subscriptions to a type with one Query (`listSubscriptionsOfType`);
 * and an id lookup item, written in the same transaction, for unsubscribing by id.
 */
export interface AutomationSubscription {
  /** `hook_<body>`, time-ordered. */
  readonly id: string;
  readonly merchant_id: string;
  readonly target_url: string;
  /** The catalogue's canonical name of the subscribed event type. */
  readonly event_type: string;
  readonly created_at: string;
}

const ID_PREFIX = 'hook';

/**
 * Subscriptions one merchant may hold (every type together): bounds the dispatcher's fan-out per
 * event. The spec names no limit; webhook endpoints have 16, automation platforms make one
 * subscription per trigger of each workflow, hence more room.
 */
export const MAX_AUTOMATION_SUBSCRIPTIONS = 100;

const targetHash = (targetUrl: string): string => createHash('sha256').update(targetUrl).digest('hex');

function subscriptionOf(item: Record<string, unknown>): AutomationSubscription {
  return {
    id: String(item.id),
    merchant_id: String(item.merchant_id),
    target_url: String(item.target_url),
    event_type: String(item.event_type),
    created_at: String(item.created_at),
  };
}

async function readSubscription(merchantId: string, eventType: string, hash: string): Promise<AutomationSubscription | undefined> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: env.TABLE_NAME, Key: automationKeys.subscription(merchantId, eventType, hash), ConsistentRead: true }),
  );
  return Item === undefined ? undefined : subscriptionOf(Item);
}

/**
 * Subscribes `targetUrl` to `eventType` (canonical name). Idempotent: the same target and type
 * again gives the existing subscription back with `created: false`. One transaction writes the
 * subscription, its id lookup and the merchant's count, on the conditions that the subscription
 * does not exist yet and that the count is under MAX_AUTOMATION_SUBSCRIPTIONS (else 422
 * `param: target_url`).
 */
export async function subscribe(
  merchantId: string,
  eventType: string,
  targetUrl: string,
  now: Date = new Date(),
): Promise<{ subscription: AutomationSubscription; created: boolean }> {
  const hash = targetHash(targetUrl);
  const body = timeOrderedId(now);
  const subscription: AutomationSubscription = {
    id: `${ID_PREFIX}_${body}`,
    merchant_id: merchantId,
    target_url: targetUrl,
    event_type: eventType,
    created_at: now.toISOString(),
  };
  try {
    await documentClient.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: env.TABLE_NAME,
              Item: { ...automationKeys.subscription(merchantId, eventType, hash), entity: AUTOMATION_ENTITY.subscription, ...subscription },
              ConditionExpression: 'attribute_not_exists(PK)',
            },
          },
          {
            Put: {
              TableName: env.TABLE_NAME,
              Item: { ...automationKeys.subscriptionId(merchantId, body), entity: AUTOMATION_ENTITY.subscriptionId, event_type: eventType, target_hash: hash },
              ConditionExpression: 'attribute_not_exists(PK)',
            },
          },
          {
            Update: {
              TableName: env.TABLE_NAME,
              Key: automationKeys.subscriptionCount(merchantId),
              UpdateExpression: 'ADD subscription_count :one',
              ConditionExpression: 'attribute_not_exists(subscription_count) OR subscription_count < :max',
              ExpressionAttributeValues: { ':one': 1, ':max': MAX_AUTOMATION_SUBSCRIPTIONS },
            },
          },
        ],
      }),
    );
    return { subscription, created: true };
  } catch (error) {
    if (!(error instanceof TransactionCanceledException)) throw error;
    const failed = (index: number): boolean => error.CancellationReasons?.[index]?.Code === 'ConditionalCheckFailed';
    if (failed(0)) {
      const existing = await readSubscription(merchantId, eventType, hash);
      if (existing !== undefined) return { subscription: existing, created: false };
    }
    if (failed(2)) {
      throw new ValidationError(`A merchant has at most ${MAX_AUTOMATION_SUBSCRIPTIONS} automation subscriptions: unsubscribe one first.`, {
        param: 'target_url',
        cause: error,
      });
    }
    throw error;
  }
}

/** The subscription of that id, or undefined (another merchant's id included). */
export async function getSubscriptionById(merchantId: string, id: string): Promise<AutomationSubscription | undefined> {
  const body = idBody(id, ID_PREFIX);
  if (body === undefined) return undefined;
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: env.TABLE_NAME, Key: automationKeys.subscriptionId(merchantId, body), ConsistentRead: true }),
  );
  if (Item === undefined) return undefined;
  return readSubscription(merchantId, String(Item.event_type), String(Item.target_hash));
}

/** The subscription of that target to that (canonical) event type, or undefined. */
export function getSubscriptionByTarget(merchantId: string, eventType: string, targetUrl: string): Promise<AutomationSubscription | undefined> {
  return readSubscription(merchantId, eventType, targetHash(targetUrl));
}

/** Removes a subscription and its id lookup, and frees its place in the count, in one transaction; false when it was gone already. */
export async function deleteSubscription(subscription: AutomationSubscription): Promise<boolean> {
  const body = idBody(subscription.id, ID_PREFIX) as string;
  try {
    await documentClient.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Delete: {
              TableName: env.TABLE_NAME,
              Key: automationKeys.subscription(subscription.merchant_id, subscription.event_type, targetHash(subscription.target_url)),
              ConditionExpression: 'id = :id',
              ExpressionAttributeValues: { ':id': subscription.id },
            },
          },
          { Delete: { TableName: env.TABLE_NAME, Key: automationKeys.subscriptionId(subscription.merchant_id, body) } },
          {
            Update: {
              TableName: env.TABLE_NAME,
              Key: automationKeys.subscriptionCount(subscription.merchant_id),
              UpdateExpression: 'ADD subscription_count :minus',
              ExpressionAttributeValues: { ':minus': -1 },
            },
          },
        ],
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof TransactionCanceledException && error.CancellationReasons?.[0]?.Code === 'ConditionalCheckFailed') return false;
    throw error;
  }
}

/**
 * Every subscription of a merchant to one (canonical) event type (in no particular order): one Query
 * (paged past 1 MB), for the dispatcher that delivers events to them.
 */
export async function listSubscriptionsOfType(merchantId: string, eventType: string): Promise<AutomationSubscription[]> {
  const subscriptions: AutomationSubscription[] = [];
  const pages = paginateQuery(
    { client: documentClient },
    { TableName: env.TABLE_NAME, ...queries.partitionPrefix(automationKeys.subscriptionsOfType(merchantId, eventType)) },
  );
  for await (const page of pages) subscriptions.push(...(page.Items ?? []).map(subscriptionOf));
  return subscriptions;
}

/**
 * The subscriptions an outbound event goes to (the dispatcher's read): its fact's canonical name
 * from the catalogue (any of the event's `types` finds the fact), then one Query. An event of no
 * catalogued fact has none.
 */
export async function listSubscriptionsForEvent(merchantId: string, types: readonly string[]): Promise<AutomationSubscription[]> {
  const entry = types.map(catalogueEntry).find((found) => found !== undefined);
  if (entry === undefined) return [];
  return listSubscriptionsOfType(merchantId, namesOf(entry)[0] as string);
}
