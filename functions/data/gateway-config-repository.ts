import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { type GatewayName, isGatewayName } from '#core/payment-gateway';
import { env } from '#shared/env';
import { documentClient } from './client';
import { gatewayConfigEntity } from './entities/gateway-config';
import { retryKeys } from './keys';

/**
 * Which payment gateway the retry engine charges a merchant's payments of one provider through
 * (`npm run admin -- gateways set --merchant <id> --psp stripe --gateway stripe`). Without an
 * item, DEFAULT_PAYMENT_GATEWAY (sandbox locally; unset on AWS: no gateway).
 */
export interface GatewayConfig {
  readonly merchant_id: string;
  readonly psp: string;
  readonly gateway: GatewayName;
  readonly updated_at: string;
}

export async function setGateway(merchantId: string, psp: string, gateway: GatewayName, now: Date = new Date()): Promise<GatewayConfig> {
  const config: GatewayConfig = { merchant_id: merchantId, psp, gateway, updated_at: now.toISOString() };
  await documentClient.send(new PutCommand({ TableName: env.TABLE_NAME, Item: gatewayConfigEntity.toItem(config) }));
  return config;
}

/** The gateway for the merchant's payments of `psp`, or undefined when none is configured. */
export async function gatewayNameFor(merchantId: string, psp: string): Promise<GatewayName | undefined> {
  const { Item } = await documentClient.send(new GetCommand({ TableName: env.TABLE_NAME, Key: retryKeys.gatewayConfig(merchantId, psp) }));
  const configured = Item === undefined ? undefined : gatewayConfigEntity.fromItem(Item).gateway;
  if (typeof configured === 'string' && isGatewayName(configured)) return configured;
  return env.DEFAULT_PAYMENT_GATEWAY;
}
