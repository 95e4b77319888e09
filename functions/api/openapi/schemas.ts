import * as z from '#shared/zod';

/** The document as served: an OpenAPI 3.1 document, described by its fixed top-level shape only. */
export const OpenApiDocumentResponse = z
  .looseObject({
    openapi: z.literal('3.1.0'),
    info: z.looseObject({ title: z.string(), version: z.string() }),
    paths: z.record(z.string(), z.looseObject({})),
  })
  .clone()
  .register(z.globalRegistry, { description: 'This OpenAPI 3.1 document, unwrapped (it is a document, not a resource).' });

export const getOpenApiDocumentSchemas = { responses: { 200: OpenApiDocumentResponse } } as const;
