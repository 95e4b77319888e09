import * as z from '#shared/zod';
import { DATABASE_NAME_PATTERN } from '#core/browser-sessions';
import { DateTime, described, ResponseMeta } from '#api/envelope-schemas';

const Int = z.number().check(z.int());

export const BrowserSession = z.object({
  object: z.literal('session'),
  subject: described(z.string(), "The JWT's `sub`: who the identity provider signed in."),
  issuer: described(z.string(), "The JWT's `iss` (the configured identity provider)."),
  family_id: described(z.string(), 'The family of this sign-in: every refresh keeps it; revoking revokes the whole family.'),
  status: described(z.enum(['active', 'revoked']), 'active, or revoked (answered by POST /ws/auth/revoke).'),
  created_at: DateTime,
  expires_at: described(DateTime, "When this session id stops working (refresh before it: the cookie's Max-Age)."),
  family_expires_at: described(DateTime, 'When the sign-in itself ends: no refresh goes past it (12 hours after the JWT was exchanged).'),
});

const single = z.object({ data: BrowserSession, meta: ResponseMeta });

export const createSessionSchemas = {
  body: z.object({
    token: z.optional(
      described(
        z.string().check(z.minLength(1), z.maxLength(16_384)),
        "The identity provider's JWT, when it is not sent as `Authorization: Bearer <jwt>` (if both are sent they must be the same).",
      ),
    ),
  }),
  responses: { 201: single },
  errorStatuses: [401, 503],
} as const;

export const refreshSessionSchemas = { responses: { 200: single }, errorStatuses: [401] } as const;

export const revokeSessionSchemas = { responses: { 200: single }, errorStatuses: [401] } as const;

export const createWebsocketTokenSchemas = {
  responses: {
    201: z.object({
      data: z.object({
        object: z.literal('websocket_ticket'),
        ticket: described(
          z.string(),
          'One-time credential of GET /ws/v1/database/{name}/subscribe?ticket=…: admits one connection, within 60 s. Stored only as a hash; the upstream token stays on the server.',
        ),
        expires_at: DateTime,
        expires_in: described(Int, 'Seconds the ticket stays valid (60).'),
      }),
      meta: ResponseMeta,
    }),
  },
  errorStatuses: [401, 502, 503],
} as const;

export const subscribeDatabaseSchemas = {
  params: z.object({
    name: described(z.string().check(z.regex(DATABASE_NAME_PATTERN)), 'The upstream database: letters, digits, `-` and `_`, 1 to 64 characters.'),
  }),
  query: z.object({
    ticket: z.optional(described(z.string(), 'A one-time ticket from POST /ws/v1/identity/websocket-token, instead of the session cookie.')),
  }),
  // 101: the upgrade (no body); a plain GET is 426.
  responses: { 101: z.undefined() },
  errorStatuses: [401, 426, 502, 503],
} as const;
