/**
 * The error family every operation throws. One mapper (api/pipeline/responses.ts) renders
 * them as DESIGN's envelope `{ error: { code, message, param?, request_id, retry_after? } }`,
 * one status per code. `expose` is false only for 5xx, whose message never reaches the client.
 */
export interface AppErrorOptions extends ErrorOptions {
  readonly param?: string;
  /** Response headers the error carries (for example the rate-limit headers of a 429). */
  readonly headers?: Readonly<Record<string, string>>;
}

export abstract class AppError extends Error {
  abstract readonly statusCode: number;
  abstract readonly code: string;
  readonly param?: string;
  readonly headers: Readonly<Record<string, string>>;

  constructor(message: string, options: AppErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    if (options.param !== undefined) this.param = options.param;
    this.headers = options.headers ?? {};
  }

  get expose(): boolean {
    return this.statusCode < 500;
  }

  toJSON(): { code: string; message: string; param?: string } {
    return {
      code: this.code,
      message: this.expose ? this.message : 'An unexpected error occurred.',
      ...(this.param === undefined ? {} : { param: this.param }),
    };
  }
}

export class InvalidRequestError extends AppError {
  readonly statusCode = 400;
  readonly code = 'invalid_request';
}

export class InvalidApiKeyError extends AppError {
  readonly statusCode = 401;
  readonly code = 'invalid_api_key';
}

/** A provider webhook whose signature is missing, wrong or stale (nothing of it is stored). */
export class InvalidSignatureError extends AppError {
  readonly statusCode = 401;
  readonly code = 'invalid_signature';
}

export class InsufficientScopeError extends AppError {
  readonly statusCode = 403;
  readonly code = 'insufficient_scope';
}

export class ResourceNotFoundError extends AppError {
  readonly statusCode = 404;
  readonly code = 'resource_not_found';
}

export class StateConflictError extends AppError {
  readonly statusCode = 409;
  readonly code = 'state_conflict';
}

export class ValidationError extends AppError {
  readonly statusCode = 422;
  readonly code = 'validation_error';
}

export class RateLimitExceededError extends AppError {
  readonly statusCode = 429;
  readonly code = 'rate_limit_exceeded';
  readonly retryAfterSeconds: number;

  constructor(message: string, retryAfterSeconds: number, options: AppErrorOptions = {}) {
    super(message, options);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

export class InternalError extends AppError {
  readonly statusCode = 500;
  readonly code = 'internal_error';
}

/**
 * An upstream model or service answered with an error (AI generation: the model failed). Its
 * message is safe to show (it names no internals), so it is exposed although it is a 5xx.
 */
export class UpstreamError extends AppError {
  readonly statusCode = 502;
  readonly code = 'upstream_error';

  override get expose(): boolean {
    return true;
  }
}

/** An upstream model or service did not answer within its bound (AI generation: the model timed out). */
export class UpstreamTimeoutError extends AppError {
  readonly statusCode = 504;
  readonly code = 'upstream_timeout';

  override get expose(): boolean {
    return true;
  }
}

/** A route of the table whose operation is not built yet. */
export class NotImplementedError extends AppError {
  readonly statusCode = 501;
  readonly code = 'not_implemented';

  override get expose(): boolean {
    return true;
  }
}

/** Why a credential of the session proxy was refused: a stable machine-readable reason beside the code. */
abstract class ReasonedUnauthorizedError extends AppError {
  readonly statusCode = 401;
  readonly reason: string;

  constructor(message: string, reason: string, options: AppErrorOptions = {}) {
    super(message, options);
    this.reason = reason;
  }

  override toJSON(): { code: string; message: string; param?: string; reason: string } {
    return { ...super.toJSON(), reason: this.reason };
  }
}

/** An identity-provider JWT that does not verify (session proxy): `reason` says why (`expired`, `wrong_issuer`, ...). */
export class InvalidTokenError extends ReasonedUnauthorizedError {
  readonly code = 'invalid_token';
}

/** A session cookie that opens no usable session (session proxy): `reason` says why (`missing_cookie`, `revoked`, ...). */
export class InvalidSessionError extends ReasonedUnauthorizedError {
  readonly code = 'invalid_session';
}

/** A GET that must be a WebSocket upgrade but is not (426, with `Upgrade: websocket`). */
export class UpgradeRequiredError extends AppError {
  readonly statusCode = 426;
  readonly code = 'upgrade_required';
}

/**
 * A part of the service that is not configured here (the session proxy without its identity
 * provider or upstream), or a dependency it cannot reach: nothing was changed; the message says
 * which setting or dependency.
 */
export class ServiceUnavailableError extends AppError {
  readonly statusCode = 503;
  readonly code = 'service_unavailable';

  override get expose(): boolean {
    return true;
  }
}
