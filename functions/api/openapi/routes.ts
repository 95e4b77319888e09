import { type RouteDef, v1 } from '#api/route-rows';
import { getOpenApiDocumentSchemas } from './schemas';

/** The `openapi` group's rows of the route table: its Lambda serves exactly these. */
export const openapiRoutes: readonly RouteDef[] = [
  v1('openapi', 'GET', '/openapi.json', 'getOpenApiDocument', [], 'This OpenAPI 3.1 document', { auth: 'public', schemas: getOpenApiDocumentSchemas }),
];
