import type { APIGatewayProxyResult } from 'aws-lambda';
import { AppError, InternalError, RateLimitExceededError } from '#core/errors';
import type { Pagination } from './paging';

export type Headers = Record<string, string>;

const JSON_HEADERS: Headers = { 'Content-Type': 'application/json; charset=utf-8' };

export function jsonResponse(statusCode: number, body: unknown, headers: Headers = {}): APIGatewayProxyResult {
  return { statusCode, headers: { ...JSON_HEADERS, ...headers }, body: JSON.stringify(body) };
}

/** A hosted page: HTML that frames nothing and loads nothing from elsewhere. */
export function htmlResponse(statusCode: number, html: string, headers: Headers = {}): APIGatewayProxyResult {
  return {
    statusCode,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'no-store',
      'Referrer-Policy': 'no-referrer',
      ...headers,
    },
    body: html,
  };
}

/**
 * A file as the body: UTF-8 text, sent as text (the REST APIs declare no binary media types, so a
 * base64 body would reach the client as base64), never sniffed as something else, never cached.
 */
export function fileResponse(statusCode: number, file: { readonly bytes: Buffer; readonly contentType: string }, headers: Headers = {}): APIGatewayProxyResult {
  return {
    statusCode,
    headers: {
      'Content-Type': file.contentType,
      'Content-Length': String(file.bytes.length),
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'no-store',
      ...headers,
    },
    body: file.bytes.toString('utf8'),
  };
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

/** An offset-paged list: `{ data, pagination: { total, page, per_page, total_pages }, meta }`. */
export const pagedEnvelope = <T>(data: readonly T[], pagination: Pagination, requestId: string, merchantId?: string) => ({
  data,
  pagination,
  meta: meta(requestId, merchantId),
});

/** A cursor-paged list: `{ data, cursor: { next }, meta }`; `next` is null on the last page. */
export const cursorEnvelope = <T>(data: readonly T[], cursor: { readonly next: string | null }, requestId: string, merchantId?: string) => ({
  data,
  cursor,
  meta: meta(requestId, merchantId),
});

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
