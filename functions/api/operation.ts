import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { z } from 'zod/mini';
import type { ApiKeyRecord } from '#core/api-keys';
import type { BrowserSessionRecord } from '#core/browser-sessions';
import type { CancelSessionRecord } from '#core/cancel-sessions';
import type { Headers } from './pipeline/responses';
import type { AuthKind, RouteDef, RouteSchemas } from './route-types';

/** A caller with a valid API key holding one of the row's scopes; its merchant is the tenant of the request. */
export interface ApiKeyPrincipal {
  readonly kind: 'api_key';
  /** Nothing in the path or body can change it. */
  readonly merchantId: string;
  readonly apiKey: ApiKeyRecord;
}

/** No credential: a public row, or an `optional_api_key` row called without a key. */
export interface PublicPrincipal {
  readonly kind: 'public';
}

/** The holder of the shared internal secret (scheduled and operator calls). */
export interface CronPrincipal {
  readonly kind: 'cron_secret';
}

/**
 * A sender whose signature over the request the row's verifier accepted: a payment provider, or
 * the service's own messaging and email providers. Verifiers add what they established (the
 * merchant, the verified body).
 */
export interface SignedPrincipal {
  readonly kind: 'provider_signature';
  /** `stripe`, `messaging`, `mailer`, …: who signed. */
  readonly sender: string;
}

/** The holder of a cancel session's token (the `{token}` in the path): the session it opens, not expired. */
export interface SessionTokenPrincipal {
  readonly kind: 'session_token';
  /** The SHA-256 of the token, the session's key (the token itself is never stored). */
  readonly tokenHash: string;
  readonly session: CancelSessionRecord;
}

/** An end customer's widget whose signed init the pipeline verified (fresh, genuine, not replayed): the merchant and customer it signed. */
export interface WidgetPrincipal {
  readonly kind: 'widget_hmac';
  readonly merchantId: string;
  readonly customerId: string;
}

/**
 * A browser of the session proxy: the holder of a usable `__Host-sid` session (`via: 'cookie'`),
 * or, on the WebSocket subscribe row only, of an unspent one-time ticket (`via: 'ticket'`).
 */
export type SessionCookiePrincipal =
  | {
      readonly kind: 'session_cookie';
      readonly via: 'cookie';
      /** The SHA-256 of the session id, the session's key (the id itself is never stored). */
      readonly sessionHash: string;
      readonly session: BrowserSessionRecord;
    }
  | {
      readonly kind: 'session_cookie';
      readonly via: 'ticket';
      readonly subject: string;
      readonly issuer: string;
      readonly familyId: string;
    };

/** What each auth kind's authenticator establishes (api/pipeline/authenticator.ts). */
export interface PrincipalOf {
  readonly api_key: ApiKeyPrincipal;
  readonly optional_api_key: ApiKeyPrincipal | PublicPrincipal;
  readonly public: PublicPrincipal;
  readonly cron_secret: CronPrincipal;
  readonly provider_signature: SignedPrincipal;
  readonly session_token: SessionTokenPrincipal;
  readonly widget_hmac: WidgetPrincipal;
  readonly session_cookie: SessionCookiePrincipal;
}

export type Principal = PrincipalOf[AuthKind];

/** Checks a signed request before anything reads it; throws InvalidSignatureError (401) or ResourceNotFoundError (404). */
export type SignatureVerifier<P extends SignedPrincipal = SignedPrincipal> = (event: APIGatewayProxyEvent, route: RouteDef) => Promise<P>;

type Parsed<T, Otherwise> = T extends z.ZodMiniType ? z.output<T> : Otherwise;

/** What an operation receives: the authenticated principal and the request, validated against its row's schemas. */
export interface OperationRequest<S extends RouteSchemas = RouteSchemas, P = Principal> {
  readonly event: APIGatewayProxyEvent;
  readonly route: RouteDef;
  readonly requestId: string;
  readonly principal: P;
  /** Path parameters, percent-decoded. */
  readonly params: Parsed<S['params'], Readonly<Record<string, string>>>;
  readonly query: Parsed<S['query'], Readonly<Record<string, string>>>;
  readonly body: Parsed<S['body'], undefined>;
}

export interface OperationResult {
  /** @default 200 */
  readonly statusCode?: number;
  /** Serialised as JSON; already enveloped where the route's form wants an envelope. */
  readonly body: unknown;
  /** An HTML page to answer instead of `body` (`text/html`; the row lists the status in `htmlStatuses`). */
  readonly html?: string;
  /** A file to answer instead of `body` (UTF-8 text of the given content type; the row lists the status in `fileResponses`). */
  readonly file?: { readonly bytes: Buffer; readonly contentType: string };
  readonly headers?: Headers;
}

/** One operation of the route table: takes the authenticated request, returns the body, throws AppErrors. */
export interface Operation {
  /** The auth kind of its route row (checked when the group loads). */
  readonly auth: AuthKind;
  /** The very schemas object of the operation's route row (checked when the group loads). */
  readonly schemas: RouteSchemas;
  /** The signature check of a `provider_signature` row, run by the pipeline before the request is parsed. */
  readonly verify?: SignatureVerifier;
  run(request: OperationRequest): Promise<OperationResult>;
}

type Run<S extends RouteSchemas, P> = (request: OperationRequest<S, P>) => Promise<OperationResult>;

/**
 * Declares an operation with the auth kind and the schemas of its route row, so that its input
 * and principal are typed from them and the pipeline authenticates and validates with exactly
 * the same objects. A signed row also names its verifier; no operation checks credentials itself.
 *
 * @example export const getThing = defineOperation({ auth: 'api_key', schemas: getThingSchemas }, async ({ principal, params }) => ({ body: ... }));
 */
export function defineOperation<S extends RouteSchemas, A extends Exclude<AuthKind, 'provider_signature'>>(
  definition: { readonly auth: A; readonly schemas: S },
  run: Run<S, PrincipalOf[A]>,
): Operation;
export function defineOperation<S extends RouteSchemas, P extends SignedPrincipal>(
  definition: { readonly auth: 'provider_signature'; readonly schemas: S; readonly verify: SignatureVerifier<P> },
  run: Run<S, P>,
): Operation;
export function defineOperation(
  definition: { readonly auth: AuthKind; readonly schemas: RouteSchemas; readonly verify?: SignatureVerifier },
  run: Run<RouteSchemas, never>,
): Operation {
  return { ...definition, run: run as Operation['run'] };
}
