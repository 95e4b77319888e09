import type { APIGatewayProxyEvent } from 'aws-lambda';
import { NotImplementedError } from '#core/errors';
import type { Operation, PrincipalOf, PublicPrincipal } from '#api/operation';
import type { AuthKind, RouteDef } from '#api/route-types';

/**
 * Authenticators: one per auth kind (route-types.ts `AUTH_KINDS`). Each refuses what it cannot
 * verify (401, or 404 where the credential names nothing) and otherwise gives the operation its
 * typed principal. Each kind lives beside what it needs (`api-key.ts`, `cron-secret.ts`,
 * `session-token.ts`, `widget-hmac.ts`, `session-cookie.ts`; the two that need nothing here), and
 * a group's handler passes `createGroupHandler` only those of its rows' kinds, so that a Lambda
 * bundles no other kind's code (the widget's, the session cookie's KMS and WebSocket clients, the
 * cron secret's Secrets Manager client). Scopes are checked after the rate limit (group-handler.ts),
 * so that a 403 is counted and carries the rate-limit headers like every response after
 * authentication.
 */
export interface AuthenticationRequest {
  readonly event: APIGatewayProxyEvent;
  readonly route: RouteDef;
  /** The row's operation; undefined while it is not built. */
  readonly operation: Operation | undefined;
  readonly now: Date;
}

export type Authenticator<A extends AuthKind> = (request: AuthenticationRequest) => Promise<PrincipalOf[A]>;

/** Some kinds' authenticators: what a group's handler gives its pipeline. */
export type Authenticators = { readonly [A in AuthKind]?: Authenticator<A> };

export const notBuilt = (route: RouteDef): NotImplementedError =>
  new NotImplementedError(`${route.method} ${route.path} (${route.operationId}) is not implemented yet.`);

const PUBLIC: PublicPrincipal = { kind: 'public' };

/** `public`: anyone; the principal says so. */
export const publicAuth = { public: async () => PUBLIC } as const satisfies Authenticators;

/** `provider_signature`: the operation verifies its provider's signature itself (`operation.verify`). */
export const providerSignatureAuth = {
  provider_signature: async ({ event, route, operation }) => {
    if (operation?.verify === undefined) throw notBuilt(route);
    return operation.verify(event, route);
  },
} as const satisfies Authenticators;
