import { createRemoteJWKSet, errors, type JWTPayload, jwtVerify } from 'jose';
import { JWT_CLOCK_TOLERANCE_SECONDS } from '#core/browser-sessions';
import { InvalidTokenError, ServiceUnavailableError } from '#core/errors';

/**
 * Verifies identity-provider JWTs against the provider's JWKS with `jose` (DESIGN §2c). Issuer,
 * audience and JWKS URL are read at call time (`IDP_ISSUER`, `IDP_AUDIENCE`, `IDP_JWKS_URL`), so
 * the local stack and tests can set them after load; any of them unset is 503
 * `service_unavailable` (never a 500). Only asymmetric algorithms are accepted: `alg: none` and
 * every HS* are refused before any key is looked at, so a token MACed with the provider's public
 * key cannot pass. `sub` and `exp` are required; `exp`/`nbf` allow 30 s of clock skew.
 *
 * The key set is kept per URL at module scope, so it survives across invocations of a warm
 * function: jose refetches it after 10 minutes, and at once (at most every 30 s, its cooldown)
 * when a token names a `kid` it does not hold: a key the provider just rotated in is picked up.
 */

/** The JWS algorithms accepted: asymmetric only. */
export const ACCEPTED_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'] as const;

/** jose's remote key set options: fetch bound, unknown-kid cooldown, cache age (its documented defaults, stated). */
export const JWKS_OPTIONS = { timeoutDuration: 5_000, cooldownDuration: 30_000, cacheMaxAge: 600_000 } as const;

export interface IdentityProviderConfig {
  readonly issuer: string;
  readonly audience: string;
  readonly jwksUrl: URL;
}

export interface VerifiedIdentity {
  readonly subject: string;
  readonly issuer: string;
  /** Epoch seconds of the JWT's `exp`. */
  readonly expiresAt: number;
}

/** The identity provider's settings now; 503 naming what is missing or malformed. */
export function identityProviderConfig(): IdentityProviderConfig {
  const issuer = process.env.IDP_ISSUER?.trim();
  const audience = process.env.IDP_AUDIENCE?.trim();
  const jwks = process.env.IDP_JWKS_URL?.trim();
  const missing = [
    ['IDP_ISSUER', issuer],
    ['IDP_AUDIENCE', audience],
    ['IDP_JWKS_URL', jwks],
  ]
    .filter(([, value]) => value === undefined || value === '')
    .map(([name]) => name);
  if (missing.length > 0) throw new ServiceUnavailableError(`The session proxy is not configured: ${missing.join(', ')} unset.`);
  let jwksUrl: URL;
  try {
    jwksUrl = new URL(jwks as string);
  } catch {
    throw new ServiceUnavailableError('The session proxy is not configured: IDP_JWKS_URL is not a URL.');
  }
  if (jwksUrl.protocol !== 'https:' && jwksUrl.protocol !== 'http:')
    throw new ServiceUnavailableError('The session proxy is not configured: IDP_JWKS_URL must be http(s).');
  return { issuer: issuer as string, audience: audience as string, jwksUrl };
}

const keySets = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

function keySetOf(url: URL): ReturnType<typeof createRemoteJWKSet> {
  let keySet = keySets.get(url.href);
  if (keySet === undefined) {
    keySet = createRemoteJWKSet(url, JWKS_OPTIONS);
    keySets.set(url.href, keySet);
  }
  return keySet;
}

const refuse = (reason: string, message: string, cause?: unknown): InvalidTokenError =>
  new InvalidTokenError(message, reason, { param: 'token', ...(cause === undefined ? {} : { cause }) });

/** The 401 (or 503) of a jose failure, with a reason a client can act on. */
function refusalOf(error: unknown): Error {
  if (error instanceof errors.JWTExpired) return refuse('expired', 'The token has expired.', error);
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'iss') return refuse('wrong_issuer', 'The token was not issued by the configured identity provider.', error);
    if (error.claim === 'aud') return refuse('wrong_audience', 'The token is not meant for this service (audience).', error);
    if (error.claim === 'nbf') return refuse('not_yet_valid', 'The token is not valid yet.', error);
    return refuse('invalid_claims', `The token's "${error.claim}" claim is missing or invalid.`, error);
  }
  if (error instanceof errors.JOSEAlgNotAllowed)
    return refuse('algorithm_not_allowed', `Only asymmetric signatures are accepted (${ACCEPTED_ALGORITHMS.join(', ')}).`, error);
  if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys)
    return refuse('unknown_key', "No key of the identity provider's key set matches the token.", error);
  if (error instanceof errors.JWSSignatureVerificationFailed) return refuse('bad_signature', 'The token signature does not verify.', error);
  if (error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid)
    return new ServiceUnavailableError("The identity provider's key set could not be fetched; retry shortly.", { cause: error });
  if (
    error instanceof errors.JWSInvalid ||
    error instanceof errors.JWTInvalid ||
    error instanceof errors.JOSENotSupported ||
    error instanceof errors.JWKInvalid
  )
    return refuse('malformed', 'The token is not a well-formed signed JWT.', error);
  // A key set that did not answer 200 (jose's generic error) or a network failure.
  return new ServiceUnavailableError("The identity provider's key set could not be fetched; retry shortly.", { cause: error });
}

/** A JWT's claims once its signature, issuer, audience and times are verified; InvalidTokenError (401) with a reason otherwise. */
export async function verifyIdentityToken(token: string, now: Date = new Date()): Promise<VerifiedIdentity> {
  const config = identityProviderConfig();
  if (token.split('.').length !== 3 || token.length > 16_384) throw refuse('malformed', 'The token is not a compact JWS (three base64url parts).');
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(token, keySetOf(config.jwksUrl), {
      issuer: config.issuer,
      audience: config.audience,
      algorithms: [...ACCEPTED_ALGORITHMS],
      clockTolerance: JWT_CLOCK_TOLERANCE_SECONDS,
      requiredClaims: ['sub', 'exp'],
      currentDate: now,
    }));
  } catch (error) {
    throw refusalOf(error);
  }
  if (typeof payload.sub !== 'string' || payload.sub === '' || payload.sub.length > 255)
    throw refuse('invalid_claims', 'The token\'s "sub" claim must be a string of 1 to 255 characters.');
  return { subject: payload.sub, issuer: config.issuer, expiresAt: payload.exp as number };
}
