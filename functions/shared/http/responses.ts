import type { APIGatewayProxyResult } from 'aws-lambda';
import { AppError, InternalError, RateLimitExceededError } from '../../core/errors';

export type Headers = Record<string, string>;

const JSON_HEADERS: Headers = { 'Content-Type': 'application/json; charset=utf-8' };

export function jsonResponse(statusCode: number, body: unknown, headers: Headers = {}): APIGatewayProxyResult {
  return { statusCode, headers: { ...JSON_HEADERS, ...headers }, body: JSON.stringify(body) };
}

export interface Meta {
  readonly timestamp: string;
  readonly request_id: string;
  readonly merchant_id?: string;
}

export const meta = (requestId: string, merchantId?: string, now: Date = new Date()): Meta => ({
  timestamp: now.toISOString(),
  request_id: requestId,
  ...(merchantId === undefined ? {} : { merchant_id: merchantId }),
});

/** DESIGN's success envelope `{ data, meta }`. */
export const envelope = <T>(data: T, requestId: string, merchantId?: string) => ({ data, meta: meta(requestId, merchantId) });

/** Renders any thrown value as the error envelope; unknown errors become a 500 that leaks nothing. */
export function errorResponse(error: unknown, requestId: string, extraHeaders: Headers = {}): APIGatewayProxyResult {
  const appError = error instanceof AppError ? error : new InternalError('unexpected', { cause: error });
  const headers: Headers = { ...extraHeaders, ...appError.headers, 'X-Request-Id': requestId };
  const body: Record<string, unknown> = { ...appError.toJSON(), request_id: requestId };
  if (appError instanceof RateLimitExceededError) {
    body.retry_after = appError.retryAfterSeconds;
    headers['Retry-After'] = String(appError.retryAfterSeconds);
  }
  return jsonResponse(appError.statusCode, { error: body }, headers);
}
