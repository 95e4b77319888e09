import type { GatewayName, PaymentGateway } from '#core/payment-gateway';
import { sandboxGateway } from './sandbox';
import { stripeGateway } from './stripe';

/** The payment gateways by name (configured per merchant and provider: data/gateway-config-repository.ts). */
const GATEWAYS: Readonly<Partial<Record<GatewayName, PaymentGateway>>> = {
  sandbox: sandboxGateway,
  stripe: stripeGateway,
};

/** The gateway called `name`, or undefined when this build has none of that name. */
export function paymentGatewayNamed(name: GatewayName): PaymentGateway | undefined {
  return GATEWAYS[name];
}
