import { env } from '../../shared/env';
import { defineOperation } from '../operation';
import { routes } from '../routes';
import { buildOpenApiDocument } from './build-document';
import { getOpenApiDocumentSchemas } from './schemas';

/**
 * GET /api/v1/openapi.json: the OpenAPI 3.1 document of the route table, unwrapped. Built once
 * per cold start (the builder caches it) and cacheable by clients and CDNs for five minutes.
 */
export const getOpenApiDocument = defineOperation(getOpenApiDocumentSchemas, async () => ({
  body: buildOpenApiDocument(routes, { version: env.SERVICE_VERSION }),
  headers: { 'Content-Type': 'application/json', 'Cache-Control': 'public, max-age=300' },
}));
