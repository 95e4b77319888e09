import { gunzipSync } from 'node:zlib';
import { env } from '#shared/env';
import { defineOperation } from '#api/operation';
import { getOpenApiDocumentSchemas } from './schemas';
import { servedOrigins } from './served-origins';
import { withServerOrigins } from './servers';
import type { OpenApiDocument } from './types';

/**
 * The document, gzipped and base64-encoded, as the bundler built it from the route table
 * (lib/function-bundles.ts `bundleDefinesFor`, esbuild `define`). Absent when the handler runs
 * unbundled (the local stack, tests): the document is then built in-process, by the same builder.
 */
declare const __OPENAPI_DOCUMENT_GZIP__: string | undefined;

let document: Promise<OpenApiDocument> | undefined;

/**
 * The document of the route table: on AWS the one built at bundle time, so that the function
 * neither bundles every group's schemas nor converts them at cold start; unbundled, built on
 * first use. The esbuild define makes the other branch dead code, which the bundle leaves out.
 */
function routeTableDocument(): Promise<OpenApiDocument> {
  document ??=
    typeof __OPENAPI_DOCUMENT_GZIP__ === 'string'
      ? Promise.resolve(JSON.parse(gunzipSync(Buffer.from(__OPENAPI_DOCUMENT_GZIP__, 'base64')).toString('utf8')) as OpenApiDocument)
      : Promise.all([import('./build-document'), import('#api/routes')]).then(([builder, table]) =>
          builder.buildOpenApiDocument(table.routes, { version: env.SERVICE_VERSION }),
        );
  return document;
}

/**
 * GET /api/v1/openapi.json: the OpenAPI 3.1 document of the route table, unwrapped. Each response
 * points its servers at the origin it was requested from (served-origins.ts), so it is cacheable
 * by clients and CDNs for five minutes per host and scheme.
 */
export const getOpenApiDocument = defineOperation({ auth: 'public', schemas: getOpenApiDocumentSchemas }, async ({ event }) => ({
  body: withServerOrigins(await routeTableDocument(), servedOrigins(event)),
  headers: { 'Content-Type': 'application/json', 'Cache-Control': 'public, max-age=300', Vary: 'Host, X-Forwarded-Proto' },
}));
