/**
 * The parts of the OpenAPI 3.1 object model this service's document uses. Schemas are JSON
 * Schema 2020-12 (OpenAPI 3.1's dialect), kept as plain JSON; everything else is typed enough
 * for the generator and its tests to read the document without casts.
 */
export type JsonSchema = { readonly [keyword: string]: unknown };

export type Reference = { readonly $ref: string };

export interface ServerVariable {
  readonly default: string;
  readonly description?: string;
}

export interface Server {
  readonly url: string;
  readonly description?: string;
  readonly variables?: Readonly<Record<string, ServerVariable>>;
}

export interface Parameter {
  readonly name: string;
  readonly in: 'path' | 'query' | 'header' | 'cookie';
  readonly required?: boolean;
  readonly description?: string;
  readonly schema: JsonSchema;
}

export interface Header {
  readonly description?: string;
  readonly required?: boolean;
  readonly schema: JsonSchema;
}

export interface MediaType {
  readonly schema: JsonSchema;
  readonly example?: unknown;
}

export interface Response {
  readonly description: string;
  readonly headers?: Readonly<Record<string, Header | Reference>>;
  readonly content?: Readonly<Record<string, MediaType>>;
}

export interface RequestBody {
  readonly description?: string;
  readonly required: boolean;
  readonly content: Readonly<Record<string, MediaType>>;
}

/** Each entry: scheme name to the scopes (for API keys, the route's scopes; any one suffices). */
export type SecurityRequirement = Readonly<Record<string, readonly string[]>>;

export interface OperationObject {
  readonly operationId: string;
  readonly summary: string;
  readonly description: string;
  readonly tags: readonly string[];
  readonly parameters?: ReadonlyArray<Parameter | Reference>;
  readonly requestBody?: RequestBody;
  readonly responses: Readonly<Record<string, Response | Reference>>;
  readonly security: readonly SecurityRequirement[];
  /** False while the route answers 501 `not_implemented`. */
  readonly 'x-implemented': boolean;
  /** The route table's auth kind, verbatim. */
  readonly 'x-auth': string;
}

export type PathMethod = 'get' | 'post' | 'put' | 'delete' | 'patch';

export type PathItem = { readonly servers?: readonly Server[] } & { readonly [M in PathMethod]?: OperationObject };

export interface SecurityScheme {
  readonly type: 'http' | 'apiKey';
  readonly description: string;
  readonly scheme?: string;
  readonly bearerFormat?: string;
  readonly in?: 'header' | 'query' | 'cookie';
  readonly name?: string;
}

export interface Components {
  readonly schemas: Readonly<Record<string, JsonSchema>>;
  readonly parameters: Readonly<Record<string, Parameter>>;
  readonly headers: Readonly<Record<string, Header>>;
  readonly responses: Readonly<Record<string, Response>>;
  readonly securitySchemes: Readonly<Record<string, SecurityScheme>>;
}

export interface Tag {
  readonly name: string;
  readonly description: string;
}

/** Credentials OpenAPI has no scheme for, documented beside the standard ones. */
export interface NonStandardSecurity {
  readonly in: 'path' | 'body' | 'header';
  readonly description: string;
}

export interface OpenApiDocument {
  readonly openapi: '3.1.0';
  readonly info: {
    readonly title: string;
    readonly version: string;
    readonly description: string;
  };
  readonly servers: readonly Server[];
  readonly tags: readonly Tag[];
  readonly paths: Readonly<Record<string, PathItem>>;
  readonly components: Components;
  readonly 'x-nonstandard-security': Readonly<Record<string, NonStandardSecurity>>;
}
