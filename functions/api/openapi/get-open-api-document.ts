import { env } from '#shared/env';
import { defineOperation } from '#api/operation';
import { routes } from '#api/routes';
import { buildOpenApiDocument, withServerOrigins } from './build-document';
import { getOpenApiDocumentSchemas } from './schemas';
import { servedOrigins } from './served-origins';

/**
 * GET /api/v1/openapi.json: the OpenAPI 3.1 document of the route table, unwrapped. Built once
 * per cold start (the builder caches it); each response points its servers at the origin it was
 * requested from (served-origins.ts), so it is cacheable by clients and CDNs for five minutes per
 * host and scheme.
 */
export const getOpenApiDocument = defineOperation({ auth: 'public', schemas: getOpenApiDocumentSchemas }, async ({ event }) => ({
  body: withServerOrigins(buildOpenApiDocument(routes, { version: env.SERVICE_VERSION }), servedOrigins(event)),
  headers: { 'Content-Type': 'application/json', 'Cache-Control': 'public, max-age=300', Vary: 'Host, X-Forwarded-Proto' },
}));
