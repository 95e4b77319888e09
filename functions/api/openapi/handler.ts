import { createGroupHandler } from '#api/group-handler';
import { publicAuth } from '#api/pipeline/authenticator';
import { openapiRoutes } from './routes';
import { getOpenApiDocument } from './get-open-api-document';

/** The OpenAPI Lambda: GET /api/v1/openapi.json. */
export const handler = createGroupHandler(openapiRoutes, { getOpenApiDocument }, publicAuth);
