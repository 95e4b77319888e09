import type { GatewayConfig } from '../gateway-config-repository';
import { ENTITY, retryKeys } from '../keys';
import { defineEntity } from './define-entity';

/** The payment gateway chosen for a merchant's payments of one provider. */
export const gatewayConfigEntity = defineEntity<GatewayConfig>({
  name: ENTITY.gatewayConfig,
  key: (config) => retryKeys.gatewayConfig(config.merchant_id, config.psp),
});
