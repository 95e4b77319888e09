/**
 * Writes the OpenAPI 3.1 document of the route table to a file: `npm run openapi -- [path]`
 * (default `openapi.json`). The same document GET /api/v1/openapi.json serves; `info.version`
 * is SERVICE_VERSION when set.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildOpenApiDocument } from '#api/openapi/build-document';
import { routes } from '#api/routes';

// npm runs scripts from the package root; a relative path means the caller's directory.
const target = resolve(process.env.INIT_CWD ?? process.cwd(), process.argv[2] ?? 'openapi.json');
const version = process.env.SERVICE_VERSION || undefined;
writeFileSync(target, `${JSON.stringify(buildOpenApiDocument(routes, { version }), null, 2)}\n`);
process.stdout.write(`${target}\n`);
