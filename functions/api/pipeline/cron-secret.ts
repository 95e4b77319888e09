import { createHash, timingSafeEqual } from 'node:crypto';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { readSecret } from '#adapters/secrets';
import { InvalidApiKeyError } from '#core/errors';
import { env } from '#shared/env';
import { logger } from '#shared/logger';
import type { Authenticators } from './authenticator';
import { headerOf } from './headers';

let configured: Promise<Buffer | undefined> | undefined;

/**
 * The shared secret of the internal routes, as the cursor key is read (api/pipeline/paging.ts):
 * CRON_SECRET when set, else the Secrets Manager secret CRON_SECRET_ARN names, read once per cold
 * start (a failed read is not kept, so the next request tries again); undefined when neither is set.
 */
function cronSecret(): Promise<Buffer | undefined> {
  configured ??= (async () => {
    if (env.CRON_SECRET !== undefined) return Buffer.from(env.CRON_SECRET, 'utf8');
    if (env.CRON_SECRET_ARN !== undefined) return Buffer.from(await readSecret(env.CRON_SECRET_ARN), 'utf8');
    return undefined;
  })();
  configured.catch(() => {
    configured = undefined;
  });
  return configured;
}

const digest = (value: Buffer): Buffer => createHash('sha256').update(value).digest();

/**
 * Admits a `cron_secret` route's caller (the pipeline's cron_secret authenticator) (spec, Authentication 10; OpenAPI `cronSecret`): the shared
 * secret as `Authorization: Bearer <secret>`, compared in constant time (both sides hashed first,
 * so neither the secret's length nor its content leaks through timing). A missing or wrong secret,
 * or none configured, is 401 `invalid_api_key` in the error envelope; the pipeline calls this before
 * they read the body, so nothing is parsed or written for a refused caller.
 */
export async function verifyCronSecret(event: APIGatewayProxyEvent): Promise<void> {
  const expected = await cronSecret();
  const refuse = (): never => {
    throw new InvalidApiKeyError('Missing or invalid cron secret: send it as "Authorization: Bearer <secret>".');
  };
  if (expected === undefined) {
    logger.warn('internal route refused: neither CRON_SECRET nor CRON_SECRET_ARN is configured', { path: event.resource });
    return refuse();
  }
  const presented = /^Bearer\s+(\S+)\s*$/i.exec(headerOf(event, 'authorization') ?? '')?.[1];
  if (presented === undefined || !timingSafeEqual(digest(Buffer.from(presented, 'utf8')), digest(expected))) refuse();
}

/** `cron_secret`: the internal routes' shared secret (verifyCronSecret). */
export const cronSecretAuth = {
  cron_secret: async ({ event }) => {
    await verifyCronSecret(event);
    return { kind: 'cron_secret' };
  },
} as const satisfies Authenticators;
