import { createHash } from 'node:crypto';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { InvalidRequestError, StateConflictError, ValidationError } from '#core/errors';
import { claimIdempotencyKey, completeIdempotencyKey, customersNamedIn, releaseIdempotencyKey } from '#data/idempotency-repository';
import { headerOf } from './headers';

const HEADER = 'Idempotency-Key';
/** Keys are valid 24 hours (spec, Limits). */
const RETENTION_SECONDS = 24 * 60 * 60;
/** Longer than any API Lambda's timeout: a claim older than this belonged to a dead invocation. */
const LOCK_SECONDS = 60;
const MAX_KEY_LENGTH = 255;
/** Headers that describe this delivery rather than the stored result. */
const PER_REQUEST_HEADERS = /^(x-request-id|x-ratelimit-.*|retry-after)$/i;

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** The Idempotency-Key of a request that creates or modifies, if it sent one. */
export function idempotencyKeyOf(event: APIGatewayProxyEvent): string | undefined {
  if (!['POST', 'PUT', 'PATCH', 'DELETE'].includes(event.httpMethod)) return undefined;
  const key = headerOf(event, HEADER);
  if (key === undefined) return undefined;
  if (key.length === 0 || key.length > MAX_KEY_LENGTH) {
    throw new InvalidRequestError(`${HEADER} must be 1 to ${MAX_KEY_LENGTH} characters.`, { param: HEADER });
  }
  return key;
}

/**
 * DESIGN §1's idempotency: the first completed response (status and body) for a merchant and
 * key is stored for 24 h and replayed byte-for-byte with `Idempotent-Replayed: true`; the same
 * key while the first is in flight is 409; with another request (method, path or body) 422 with
 * `param: Idempotency-Key`. 5xx results are not stored, so the request can be retried.
 * A stored answer is filed among the data of every customer it names (customer, payment and
 * recovery ids, emails: `customersNamedIn`), so that erasing the customer deletes it and a
 * replay after the erasure runs the request again instead of answering with erased data.
 * `execute` renders the operation's outcome, errors below 500 included.
 */
export async function withIdempotency(
  event: APIGatewayProxyEvent,
  merchantId: string,
  key: string,
  execute: () => Promise<APIGatewayProxyResult>,
  now: Date = new Date(),
): Promise<APIGatewayProxyResult> {
  const keyHash = sha256(key);
  const fingerprint = sha256(`${event.httpMethod} ${event.path}\n${event.body ?? ''}`);
  const claim = await claimIdempotencyKey({
    merchantId,
    keyHash,
    fingerprint,
    now: Math.floor(now.getTime() / 1000),
    lockSeconds: LOCK_SECONDS,
    retentionSeconds: RETENTION_SECONDS,
  });
  if (claim !== 'claimed') {
    if (claim.fingerprint !== fingerprint) {
      throw new ValidationError(`This ${HEADER} was already used with a different request.`, { param: HEADER });
    }
    if (claim.state === 'in_progress') {
      throw new StateConflictError(`A request with this ${HEADER} is still being processed; retry shortly.`);
    }
    return { statusCode: claim.response.statusCode, headers: { ...claim.response.headers, 'Idempotent-Replayed': 'true' }, body: claim.response.body };
  }
  let result: APIGatewayProxyResult;
  try {
    result = await execute();
  } catch (error) {
    await releaseIdempotencyKey(merchantId, keyHash, fingerprint);
    throw error;
  }
  if (result.statusCode >= 500) {
    await releaseIdempotencyKey(merchantId, keyHash, fingerprint);
    return result;
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(result.headers ?? {})) if (!PER_REQUEST_HEADERS.test(name)) headers[name] = String(value);
  // Filed under every customer the answer names, so that erasing one deletes it (DESIGN §2c).
  const subjects = { customerIds: await customersNamedIn(merchantId, result.body), expiresAt: Math.floor(now.getTime() / 1000) + RETENTION_SECONDS };
  await completeIdempotencyKey(merchantId, keyHash, fingerprint, { statusCode: result.statusCode, headers, body: result.body }, subjects);
  return result;
}
