import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { type BrowserSessionRecord, MAX_FAMILY_ROTATIONS, type WebsocketTicketRecord } from '#core/browser-sessions';
import { env } from '#shared/env';
import { documentClient } from './client';
import { browserSessionEntity, websocketTicketEntity } from './entities/browser-session';
import { BROWSER_SESSION_ENTITY, browserSessionKeys } from './keys';

/**
 * Sessions of the session proxy and their families, and one-time WebSocket tickets. Every state
 * change is conditional: a rotation moves one active id to `rotated` in the same transaction as
 * its successor is written and the family (still active) records it, so two concurrent refreshes
 * of one id cannot both succeed; a ticket is spent by a conditional delete, so it admits once.
 */

const TRANSACTION_ATTEMPTS = 5;

/** A conditional write's result, or undefined when its condition did not hold (nothing was written). */
async function ifConditionHolds<T>(write: () => Promise<T>): Promise<T | undefined> {
  try {
    return await write();
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return undefined;
    throw error;
  }
}

/** Writes a family's first session and the family (its status and member hashes). */
export async function createBrowserSession(sessionHash: string, session: BrowserSessionRecord): Promise<void> {
  await documentClient.send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Put: {
            TableName: env.TABLE_NAME,
            Item: browserSessionEntity.toItem(session, { session_hash: sessionHash }),
            ConditionExpression: 'attribute_not_exists(PK)',
          },
        },
        {
          Put: {
            TableName: env.TABLE_NAME,
            Item: {
              ...browserSessionKeys.family(session.family_id),
              entity: BROWSER_SESSION_ENTITY.family,
              status: 'active',
              subject: session.subject,
              issuer: session.issuer,
              members: new Set([sessionHash]),
              created_at: session.created_at,
              revoked_at: null,
              expires_at: session.family_expires_at,
            },
            ConditionExpression: 'attribute_not_exists(PK)',
          },
        },
      ],
    }),
  );
}

export async function getBrowserSession(sessionHash: string): Promise<BrowserSessionRecord | undefined> {
  const { Item } = await documentClient.send(new GetCommand({ TableName: env.TABLE_NAME, Key: browserSessionKeys.session(sessionHash), ConsistentRead: true }));
  return Item === undefined ? undefined : browserSessionEntity.fromItem(Item);
}

/**
 * Rotates `oldHash` (still active and unexpired at `now`) to `newHash` in one transaction: the old
 * id becomes `rotated`, the new one is written, the family (still active, under its rotation cap)
 * records it. False when the old id was rotated or revoked meanwhile, or the family was revoked or
 * is full: another refresh won, or the family is gone.
 */
export async function rotateBrowserSession(oldHash: string, newHash: string, next: BrowserSessionRecord, now: Date): Promise<boolean> {
  const at = now.toISOString();
  const items = [
    {
      Update: {
        TableName: env.TABLE_NAME,
        Key: browserSessionKeys.session(oldHash),
        UpdateExpression: 'SET #status = :rotated, rotated_at = :at',
        ConditionExpression: '#status = :active AND expires_at > :now',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':rotated': 'rotated', ':active': 'active', ':at': at, ':now': Math.floor(now.getTime() / 1000) },
      },
    },
    { Put: { TableName: env.TABLE_NAME, Item: browserSessionEntity.toItem(next, { session_hash: newHash }), ConditionExpression: 'attribute_not_exists(PK)' } },
    {
      Update: {
        TableName: env.TABLE_NAME,
        Key: browserSessionKeys.family(next.family_id),
        UpdateExpression: 'ADD members :new',
        ConditionExpression: '#status = :active AND size(members) < :cap',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':new': new Set([newHash]), ':active': 'active', ':cap': MAX_FAMILY_ROTATIONS },
      },
    },
  ];
  for (let attempt = 1; ; attempt += 1) {
    try {
      await documentClient.send(new TransactWriteCommand({ TransactItems: items }));
      return true;
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      const reasons = error.CancellationReasons ?? [];
      if (reasons.some((reason) => reason.Code === 'ConditionalCheckFailed')) return false;
      // A TransactionConflict (a concurrent transaction on the same items) decides nothing yet: run it again, and its conditions will.
      if (attempt >= TRANSACTION_ATTEMPTS || !reasons.some((reason) => reason.Code === 'TransactionConflict')) throw error;
      await new Promise((done) => setTimeout(done, Math.random() * 20 * 2 ** attempt));
    }
  }
}

/**
 * Revokes a whole family: the family first (so no rotation can add to it afterwards), then every
 * session id it ever held. Returns how many ids were revoked now (0 when the family was already
 * revoked or has expired away).
 */
export async function revokeBrowserSessionFamily(familyId: string, now: Date): Promise<number> {
  const at = now.toISOString();
  const revoke = (Key: Record<string, string>, ConditionExpression: string) =>
    ifConditionHolds(() =>
      documentClient.send(
        new UpdateCommand({
          TableName: env.TABLE_NAME,
          Key,
          UpdateExpression: 'SET #status = :revoked, revoked_at = :at',
          ConditionExpression,
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':revoked': 'revoked', ':at': at },
          ReturnValues: 'ALL_NEW',
        }),
      ),
    );
  const family = await revoke({ ...browserSessionKeys.family(familyId) }, 'attribute_exists(PK)');
  if (family === undefined) return 0;
  const members = (family.Attributes?.members as Set<string> | undefined) ?? new Set<string>();
  // An id the TTL already removed stays removed; one revoked before keeps its first revocation time.
  const revoked = await Promise.all(
    [...members].map((sessionHash) => revoke({ ...browserSessionKeys.session(sessionHash) }, 'attribute_exists(PK) AND #status <> :revoked')),
  );
  return revoked.filter((result) => result !== undefined).length;
}

export async function putWebsocketTicket(ticketHash: string, ticket: WebsocketTicketRecord): Promise<void> {
  await documentClient.send(
    new PutCommand({
      TableName: env.TABLE_NAME,
      Item: websocketTicketEntity.toItem(ticket, { ticket_hash: ticketHash }),
      ConditionExpression: 'attribute_not_exists(PK)',
    }),
  );
}

/** The ticket if it is unexpired at `now`, without spending it. */
export async function peekWebsocketTicket(ticketHash: string, now: Date): Promise<WebsocketTicketRecord | undefined> {
  const { Item } = await documentClient.send(new GetCommand({ TableName: env.TABLE_NAME, Key: browserSessionKeys.ticket(ticketHash), ConsistentRead: true }));
  if (Item === undefined) return undefined;
  const ticket = websocketTicketEntity.fromItem(Item);
  return ticket.expires_at > Math.floor(now.getTime() / 1000) ? ticket : undefined;
}

/**
 * Spends the ticket: deleted only if it is still there and unexpired at `now`, so of two
 * connections presenting it, one gets it. Undefined when it was spent, expired or never issued.
 */
export async function spendWebsocketTicket(ticketHash: string, now: Date): Promise<WebsocketTicketRecord | undefined> {
  const deleted = await ifConditionHolds(() =>
    documentClient.send(
      new DeleteCommand({
        TableName: env.TABLE_NAME,
        Key: browserSessionKeys.ticket(ticketHash),
        ConditionExpression: 'attribute_exists(PK) AND expires_at > :now',
        ExpressionAttributeValues: { ':now': Math.floor(now.getTime() / 1000) },
        ReturnValues: 'ALL_OLD',
      }),
    ),
  );
  return deleted?.Attributes === undefined ? undefined : websocketTicketEntity.fromItem(deleted.Attributes);
}

/** Whether a family is still active (not revoked, not removed after expiry): a ticket admits only while its family does. */
export async function isBrowserSessionFamilyActive(familyId: string, now: Date): Promise<boolean> {
  const { Item } = await documentClient.send(new GetCommand({ TableName: env.TABLE_NAME, Key: browserSessionKeys.family(familyId), ConsistentRead: true }));
  return Item !== undefined && Item.status === 'active' && Number(Item.expires_at) > Math.floor(now.getTime() / 1000);
}

/** An API Gateway WebSocket connection (AWS): who opened it, to which database, with the upstream token sealed. */
export interface WebsocketConnectionRecord {
  readonly connection_id: string;
  readonly database: string;
  readonly subject: string;
  readonly issuer: string;
  readonly family_id: string;
  readonly upstream_token_sealed: string;
  readonly connected_at: string;
  /** Epoch seconds: API Gateway's 2 h connection limit (and the table's TTL attribute). */
  readonly expires_at: number;
}

export async function putWebsocketConnection(connection: WebsocketConnectionRecord): Promise<void> {
  await documentClient.send(
    new PutCommand({
      TableName: env.TABLE_NAME,
      Item: { ...browserSessionKeys.connection(connection.connection_id), entity: BROWSER_SESSION_ENTITY.connection, ...connection },
    }),
  );
}

export async function deleteWebsocketConnection(connectionId: string): Promise<void> {
  await documentClient.send(new DeleteCommand({ TableName: env.TABLE_NAME, Key: browserSessionKeys.connection(connectionId) }));
}

/** The connection `$connect` recorded (read by the relay on AWS when it opens the upstream), or undefined once deleted or never written. */
export async function getWebsocketConnection(connectionId: string): Promise<WebsocketConnectionRecord | undefined> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: env.TABLE_NAME, Key: browserSessionKeys.connection(connectionId), ConsistentRead: true }),
  );
  if (Item === undefined) return undefined;
  const { PK: _pk, SK: _sk, entity: _entity, ...connection } = Item;
  return connection as WebsocketConnectionRecord;
}
