import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { type Branding, type HostedSettings, NO_BRANDING } from '#core/hosted';
import { env } from '#shared/env';
import { documentClient } from './client';
import { widgetSignatureEntity } from './entities/widget-signature';
import { ENTITY, conditions, hostedKeys } from './keys';

type Item = Record<string, unknown>;

const stringOrNull = (value: unknown): string | null => (typeof value === 'string' ? value : null);

function settingsOf(merchantId: string, item: Item | undefined): HostedSettings {
  return {
    merchant_id: merchantId,
    widget_secret_sealed: stringOrNull(item?.widget_secret_sealed),
    widget_secret_rotated_at: stringOrNull(item?.widget_secret_rotated_at),
    branding: {
      logo_url: stringOrNull(item?.logo_url),
      primary_color: stringOrNull(item?.primary_color),
      merchant_name: stringOrNull(item?.merchant_name),
    },
    update_payment_page_url: stringOrNull(item?.update_payment_page_url),
    updated_at: stringOrNull(item?.updated_at),
  };
}

/**
 * The merchant's hosted-page settings, one GetItem (consistent: a rotated secret applies at
 * once); a merchant with none has no secret, no branding, no provider page.
 */
export async function getHostedSettings(merchantId: string): Promise<HostedSettings> {
  const { Item } = await documentClient.send(new GetCommand({ TableName: env.TABLE_NAME, Key: hostedKeys.settings(merchantId), ConsistentRead: true }));
  return settingsOf(merchantId, Item);
}

/** Sets some attributes of the settings item (created on first use), answering the whole settings after. */
async function setAttributes(merchantId: string, values: Readonly<Record<string, string | null>>, now: Date): Promise<HostedSettings> {
  const names: Record<string, string> = { '#entity': 'entity' };
  const attributeValues: Record<string, unknown> = { ':entity': ENTITY.settings, ':at': now.toISOString() };
  const sets = ['#entity = :entity', 'updated_at = :at'];
  const removes: string[] = [];
  Object.entries(values).forEach(([name, value], i) => {
    names[`#a${i}`] = name;
    if (value === null) {
      removes.push(`#a${i}`);
    } else {
      attributeValues[`:v${i}`] = value;
      sets.push(`#a${i} = :v${i}`);
    }
  });
  const { Attributes } = await documentClient.send(
    new UpdateCommand({
      TableName: env.TABLE_NAME,
      Key: hostedKeys.settings(merchantId),
      UpdateExpression: `SET ${sets.join(', ')}${removes.length === 0 ? '' : ` REMOVE ${removes.join(', ')}`}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: attributeValues,
      ReturnValues: 'ALL_NEW',
    }),
  );
  return settingsOf(merchantId, Attributes);
}

/** Stores a new widget secret, sealed (the one before stops verifying at once). */
export const setWidgetSecret = (merchantId: string, sealed: string, now: Date = new Date()): Promise<HostedSettings> =>
  setAttributes(merchantId, { widget_secret_sealed: sealed, widget_secret_rotated_at: now.toISOString() }, now);

/** Changes the branding fields given (others kept), already checked (core/hosted.ts checkBranding). */
export const setBranding = (merchantId: string, change: Partial<Branding>, now: Date = new Date()): Promise<HostedSettings> =>
  setAttributes(merchantId, Object.fromEntries(Object.entries(change).filter(([name]) => name in NO_BRANDING)) as Record<string, string | null>, now);

/** Sets (or, with null, clears) the provider's hosted payment-method page, already checked. */
export const setUpdatePaymentPage = (merchantId: string, url: string | null, now: Date = new Date()): Promise<HostedSettings> =>
  setAttributes(merchantId, { update_payment_page_url: url }, now);

/**
 * Accepts a widget signature once: a conditional put of its hash, kept (TTL) until the signed
 * timestamp can no longer pass the freshness check. Of concurrent requests with one signature,
 * exactly one wins.
 *
 * @returns true the first time, false for a replay.
 */
export async function spendWidgetSignature(merchantId: string, signatureHash: string, keepUntil: number, now: Date = new Date()): Promise<boolean> {
  try {
    await documentClient.send(
      new PutCommand({
        TableName: env.TABLE_NAME,
        Item: widgetSignatureEntity.toItem(
          { merchant_id: merchantId, created_at: now.toISOString(), expires_at: keepUntil },
          { signature_hash: signatureHash },
        ),
        ConditionExpression: conditions.absent,
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}
