import {
  type AppError,
  InsufficientScopeError,
  InternalError,
  InvalidApiKeyError,
  InvalidRequestError,
  InvalidSessionError,
  InvalidSignatureError,
  InvalidTokenError,
  NotImplementedError,
  RateLimitExceededError,
  ResourceNotFoundError,
  ServiceUnavailableError,
  StateConflictError,
  UpstreamError,
  UpstreamTimeoutError,
  UpgradeRequiredError,
  ValidationError,
} from '#core/errors';
import type { Components, Header, JsonSchema, NonStandardSecurity, Reference, Response, SecurityScheme } from './types';

export { LOCAL_ORIGIN, SERVERS, serverOf } from './servers';

/**
 * The fixed parts of the document (DESIGN §1): envelopes, paging, error responses, headers and
 * security schemes. Error codes and statuses come from `core/errors.ts`, so they are written once.
 */

export const ref = (section: keyof Components, name: string): Reference => ({ $ref: `#/components/${section}/${name}` });

interface ErrorResponseDef {
  readonly sample: AppError;
  readonly description: string;
  readonly example: { readonly message: string; readonly param?: string; readonly reason?: string };
  /** Raised by authentication itself, before the key's window is counted, so without rate-limit headers. */
  readonly beforeRateLimit?: boolean;
}

/** Component name of each error response; the map's order is the order they are documented in. */
const ERROR_RESPONSES = {
  InvalidRequest: {
    sample: new InvalidRequestError('sample'),
    description: 'Malformed JSON, a missing required field or an unknown filter value (`param` names it).',
    example: { message: 'Unknown status "lost".', param: 'status' },
  },
  InvalidApiKey: {
    sample: new InvalidApiKeyError('sample'),
    description: 'Missing, unknown, expired or revoked API key.',
    example: { message: 'Invalid API key provided.' },
    beforeRateLimit: true,
  },
  InvalidCronSecret: {
    sample: new InvalidApiKeyError('sample'),
    description:
      'Internal route: the shared cron secret (`Authorization: Bearer <CRON_SECRET>`) is missing or wrong, or none is configured; nothing is read or written.',
    example: { message: 'Missing or invalid cron secret: send it as "Authorization: Bearer <secret>".' },
    beforeRateLimit: true,
  },
  InvalidSignature: {
    sample: new InvalidSignatureError('sample'),
    description:
      'A signed request (provider webhook, delivery callback) whose signature is missing, wrong or outside the allowed time window, or whose verifying secret is not configured; nothing is stored or changed.',
    example: { message: 'The webhook signature is missing, invalid or outside the allowed time window.' },
    beforeRateLimit: true,
  },
  InvalidToken: {
    sample: new InvalidTokenError('sample', 'expired'),
    description:
      'Session proxy: the identity-provider JWT is missing or does not verify; `reason` says why (`missing_token`, `malformed`, `algorithm_not_allowed`, `unknown_key`, `bad_signature`, `wrong_issuer`, `wrong_audience`, `expired`, `not_yet_valid`, `invalid_claims`). Nothing is stored.',
    example: { message: 'The token has expired.', param: 'token', reason: 'expired' },
    beforeRateLimit: true,
  },
  InvalidSession: {
    sample: new InvalidSessionError('sample', 'missing_cookie'),
    description:
      'Session proxy: the `__Host-sid` cookie opens no usable session; `reason` says why (`missing_cookie`, `unknown_session`, `expired`, `revoked`, `reused`: an id already refreshed was presented again, which revoked its whole family; `invalid_ticket` for a WebSocket ticket).',
    example: { message: 'No session cookie: sign in with POST /ws/auth/session.', param: 'Cookie', reason: 'missing_cookie' },
    beforeRateLimit: true,
  },
  InsufficientScope: {
    sample: new InsufficientScopeError('sample'),
    description: 'The key lacks every scope that grants the route.',
    example: { message: 'This API key lacks the scope for this route.' },
    beforeRateLimit: true,
  },
  ResourceNotFound: {
    sample: new ResourceNotFoundError('sample'),
    description: 'Absent, or owned by another merchant (the response never reveals which).',
    example: { message: 'No payment pe_123.' },
  },
  StateConflict: {
    sample: new StateConflictError('sample'),
    description: 'The transition is not allowed in the current state, the resource exists, or a request with the same Idempotency-Key is still in flight.',
    example: { message: 'The payment is already recovered.' },
  },
  ValidationError: {
    sample: new ValidationError('sample'),
    description: 'A well-formed field with a bad value (range, enum, format), or an Idempotency-Key reused with another body; `param` names the field.',
    example: { message: 'per_page must be at most 100.', param: 'per_page' },
  },
  RateLimitExceeded: {
    sample: new RateLimitExceededError('sample', 42),
    description: 'Too many requests in the current one-minute window; retry after `retry_after` seconds (also in `Retry-After`).',
    example: { message: 'Too many requests: this API key (reads) allows 100 a minute. Retry after 42 s.' },
  },
  InternalError: {
    sample: new InternalError('sample'),
    description: 'Anything unexpected; the message leaks no internals.',
    example: { message: 'An unexpected error occurred.' },
  },
  UpstreamError: {
    sample: new UpstreamError('sample'),
    description: 'The upstream model answered with an error (AI generation and ping); nothing was cached or charged. Safe to retry.',
    example: { message: 'The AI model failed to answer. Retry later.' },
  },
  UpstreamTimeout: {
    sample: new UpstreamTimeoutError('sample'),
    description: 'The upstream model did not answer within its time bound (AI generation and ping). Safe to retry.',
    example: { message: 'The AI model did not answer within 20000 ms.' },
  },
  UpgradeRequired: {
    sample: new UpgradeRequiredError('sample'),
    description: 'A WebSocket route called as plain HTTP: send `Connection: Upgrade` and `Upgrade: websocket` (the response carries `Upgrade: websocket`).',
    example: { message: 'GET /ws/v1/database/app/subscribe opens a WebSocket: send "Connection: Upgrade" and "Upgrade: websocket".' },
  },
  ServiceUnavailable: {
    sample: new ServiceUnavailableError('sample'),
    description:
      "A part of the service that is not configured on this deployment (the session proxy's identity provider or upstream), or a dependency it cannot reach now; nothing was changed.",
    example: { message: 'The session proxy is not configured: IDP_JWKS_URL unset.' },
  },
  NotImplemented: {
    sample: new NotImplementedError('sample'),
    description: 'The route is in the table but its operation is not built yet.',
    example: { message: 'GET /api/v1/payments (listPayments) is not implemented yet.' },
  },
} as const satisfies Record<string, ErrorResponseDef>;

export type ErrorResponseName = keyof typeof ERROR_RESPONSES;

/** The error codes of the envelope, in the order of DESIGN §1 (`invalid_signature` beside the other 401), with `not_implemented` last. */
export const ERROR_CODES: readonly string[] = [...new Set(Object.values(ERROR_RESPONSES).map(({ sample }) => sample.code))];

/**
 * `{ status: component name }`: the error response of each status, the first of the map for a
 * status that has several (401: `InvalidApiKey`; the document picks the 401 of each auth kind).
 */
export const ERROR_RESPONSE_BY_STATUS: Readonly<Record<number, ErrorResponseName>> = Object.fromEntries(
  Object.entries(ERROR_RESPONSES)
    .reverse()
    .map(([name, { sample }]) => [sample.statusCode, name as ErrorResponseName]),
);

const SAMPLE_REQUEST_ID = '3f1c2a9e-6a43-4c55-9a37-0b8a2f1d7c10';

export const RATE_LIMIT_HEADERS: Readonly<Record<string, Reference>> = {
  'X-RateLimit-Limit': ref('headers', 'XRateLimitLimit'),
  'X-RateLimit-Remaining': ref('headers', 'XRateLimitRemaining'),
  'X-RateLimit-Reset': ref('headers', 'XRateLimitReset'),
};

export const REQUEST_ID_HEADER: Readonly<Record<string, Reference>> = { 'X-Request-Id': ref('headers', 'XRequestId') };

function errorResponse({ sample, description, example, beforeRateLimit }: ErrorResponseDef): Response {
  const retryAfter = sample instanceof RateLimitExceededError ? sample.retryAfterSeconds : undefined;
  return {
    description: `\`${sample.code}\`: ${description}`,
    headers: {
      ...REQUEST_ID_HEADER,
      ...(beforeRateLimit ? {} : RATE_LIMIT_HEADERS),
      ...(retryAfter === undefined ? {} : { 'Retry-After': ref('headers', 'RetryAfter') }),
    },
    content: {
      'application/json': {
        // A plain reference: an `allOf` narrowing `code` to a const reads well but trips the
        // linter's strict example check (it closes each branch to unevaluated properties).
        schema: ref('schemas', 'ErrorEnvelope'),
        example: {
          error: {
            code: sample.code,
            ...example,
            request_id: SAMPLE_REQUEST_ID,
            ...(retryAfter === undefined ? {} : { retry_after: retryAfter }),
          },
        },
      },
    },
  };
}

const integer = (description: string, extra: JsonSchema = {}): JsonSchema => ({ type: 'integer', description, ...extra });

const SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  Meta: {
    type: 'object',
    description: 'Present on every enveloped success response.',
    required: ['timestamp', 'request_id'],
    properties: {
      timestamp: { type: 'string', format: 'date-time', description: 'When the response was produced (UTC).' },
      request_id: { type: 'string', description: 'Also in the `X-Request-Id` header; quote it when asking for support.' },
      merchant_id: { type: 'string', description: 'The merchant of the API key, when the request carried one.' },
    },
  },
  Pagination: {
    type: 'object',
    description: 'Offset paging state of a list.',
    required: ['total', 'page', 'per_page', 'total_pages'],
    properties: {
      total: integer('Items matching the filters, over all pages.', { minimum: 0 }),
      page: integer('The page returned (1-based).', { minimum: 1 }),
      per_page: integer('Items per page.', { minimum: 1, maximum: 100 }),
      total_pages: integer('Pages at this page size.', { minimum: 0 }),
    },
  },
  Cursor: {
    type: 'object',
    description: 'Cursor paging state of a list.',
    required: ['next'],
    properties: {
      next: {
        type: ['string', 'null'],
        description: 'Pass as `cursor` to get the next page; null on the last page. Opaque, signed, and valid only for the merchant it was issued to.',
      },
    },
  },
  SuccessEnvelope: {
    type: 'object',
    description: 'The success envelope `{ data, meta }`.',
    required: ['data', 'meta'],
    properties: { data: { description: 'The resource, or the list of resources.' }, meta: ref('schemas', 'Meta') },
  },
  OffsetPage: {
    type: 'object',
    description: 'A page of an offset-paged list.',
    required: ['data', 'meta', 'pagination'],
    properties: { data: { type: 'array', items: {} }, meta: ref('schemas', 'Meta'), pagination: ref('schemas', 'Pagination') },
  },
  CursorPage: {
    type: 'object',
    description: 'A page of a cursor-paged list.',
    required: ['data', 'meta', 'cursor'],
    properties: { data: { type: 'array', items: {} }, meta: ref('schemas', 'Meta'), cursor: ref('schemas', 'Cursor') },
  },
  ErrorEnvelope: {
    type: 'object',
    description: 'Every error, whatever the route: one HTTP status per `code`.',
    required: ['error'],
    properties: {
      error: {
        type: 'object',
        required: ['code', 'message', 'request_id'],
        properties: {
          code: { type: 'string', enum: [...ERROR_CODES], description: 'Stable, lowercase; branch on this, not on `message`.' },
          message: { type: 'string', description: 'For people; may change.' },
          param: { type: 'string', description: 'The parameter, field or header at fault, when there is one.' },
          request_id: { type: 'string' },
          retry_after: { type: 'integer', minimum: 0, description: 'Seconds to wait; on `rate_limit_exceeded` only.' },
          reason: { type: 'string', description: 'Why a credential was refused; on `invalid_token` and `invalid_session` only (session proxy).' },
        },
      },
    },
  },
};

const HEADERS: Readonly<Record<string, Header>> = {
  XRequestId: { description: 'The request id, as in `meta.request_id` and `error.request_id`.', required: true, schema: { type: 'string' } },
  XRateLimitLimit: {
    description: 'Requests allowed per one-minute window for this key. Sent on every response to a request authenticated with an API key, errors included.',
    schema: { type: 'integer', minimum: 0 },
  },
  XRateLimitRemaining: { description: 'Requests left in the current window.', schema: { type: 'integer', minimum: 0 } },
  XRateLimitReset: { description: 'Unix time (seconds) when the window resets.', schema: { type: 'integer', minimum: 0 } },
  RetryAfter: { description: 'Seconds to wait before retrying.', required: true, schema: { type: 'integer', minimum: 0 } },
  IdempotentReplayed: {
    description: '`true` when this response is the stored one of an earlier request with the same Idempotency-Key.',
    schema: { type: 'string', enum: ['true'] },
  },
};

const SECURITY_SCHEMES: Readonly<Record<string, SecurityScheme>> = {
  bearerAuth: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'rk_live_... | rk_test_...',
    description:
      'API key as `Authorization: Bearer rk_live_<base62>` (`rk_test_` in test mode), shown once at creation. Scopes listed on an operation: any one grants it; `admin` implies every scope and `write` implies `read`.',
  },
  apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'The same API key in `X-API-Key: rk_live_...`, as form B sends it.' },
  cronSecret: {
    type: 'apiKey',
    in: 'header',
    name: 'Authorization',
    description: 'Internal routes only, not part of the public API: the shared secret sent as `Authorization: Bearer <CRON_SECRET>`.',
  },
  sessionCookie: {
    type: 'apiKey',
    in: 'cookie',
    name: 'session',
    description: 'The HttpOnly session cookie set by `POST /ws/auth/session` (session proxy, not part of the public API).',
  },
};

/** Credentials OpenAPI has no security scheme for; operations name theirs in `x-auth`. */
export const NONSTANDARD_SECURITY: Readonly<Record<string, NonStandardSecurity>> = {
  sessionToken: {
    in: 'path',
    description:
      'Cancel-session routes (`x-auth: session_token`): the `{token}` path segment returned by `POST /api/cancel-session/start` is the credential (32 random bytes, base64url, valid 24 h).',
  },
  widgetHmac: {
    in: 'body',
    description:
      '`POST /api/widget/init` (`x-auth: widget_hmac`): `signature` in the body is the hex HMAC-SHA256 of `"{merchant_id}.{customer_id}.{timestamp}"` with the merchant\'s widget secret; `timestamp` (Unix seconds) must be within 300 s of server time.',
  },
  providerSignature: {
    in: 'header',
    description:
      "Inbound provider webhooks and delivery callbacks (`x-auth: provider_signature`): each provider's own scheme (a signature header, a signature in the body, or Basic credentials, as each operation's request body describes), verified with the merchant's secret for that provider (webhooks) or the service's own secret (delivery callbacks). A missing, wrong or stale signature is 401 `invalid_signature`.",
  },
};

const queryInteger = (name: string, description: string, schema: JsonSchema) => ({
  name,
  in: 'query' as const,
  required: false,
  description,
  schema: { type: 'integer', ...schema },
});

export const COMPONENTS: Components = {
  schemas: SCHEMAS,
  parameters: {
    Page: queryInteger('page', 'Offset paging: the page to return (1-based).', { minimum: 1, default: 1 }),
    PerPage: queryInteger('per_page', 'Offset paging: items per page.', { minimum: 1, maximum: 100, default: 25 }),
    Cursor: {
      name: 'cursor',
      in: 'query',
      required: false,
      description: 'Cursor paging: `cursor.next` of the previous page; omit for the first page.',
      schema: { type: 'string' },
    },
    Limit: queryInteger('limit', 'Cursor paging: items per page.', { minimum: 1, maximum: 200, default: 50 }),
    IdempotencyKey: {
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description:
        'Makes the request safe to retry: the first completed response is stored for 24 h per merchant and key and replayed on repeat (with `Idempotent-Replayed: true`). Still in flight: 409 `state_conflict`; same key with another body: 422 `validation_error`.',
      schema: { type: 'string', minLength: 1 },
    },
  },
  headers: HEADERS,
  responses: Object.fromEntries(Object.entries(ERROR_RESPONSES).map(([name, def]) => [name, errorResponse(def)])),
  securitySchemes: SECURITY_SCHEMES,
};
