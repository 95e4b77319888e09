import type { LocalStack } from '../../../lib/local/local-stack';
import { routes } from '../../../functions/api/routes';
import { originOf, startTestStack } from '../../fixtures/local-stack';

interface Document {
  readonly openapi: string;
  readonly paths: Record<string, Record<string, { operationId?: string }>>;
}

describe('GET /api/v1/openapi.json', () => {
  let stack: LocalStack;

  beforeAll(async () => {
    stack = await startTestStack();
  });

  afterAll(async () => {
    await stack.stop();
  });

  it('serves an OpenAPI 3.1.0 document with every row of the route table when called over HTTP without a key', async () => {
    // Act
    const response = await fetch(`${originOf(stack)}/api/v1/openapi.json`);
    const document = JSON.parse(await response.text()) as Document;
    // Assess
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('cache-control')).toBe('public, max-age=300');
    expect(document.openapi).toBe('3.1.0');
    const missing = routes.filter((route) => document.paths[route.path]?.[route.method.toLowerCase()]?.operationId !== route.operationId);
    expect(missing.map((route) => route.operationId)).toEqual([]);
  });

  it('serves the same document to a caller who sends an API key', async () => {
    // Act
    const anonymous = await (await fetch(`${stack.api_url}/openapi.json`)).text();
    const keyed = await fetch(`${stack.api_url}/openapi.json`, { headers: { Authorization: `Bearer ${stack.api_key}` } });
    // Assess
    expect(keyed.status).toBe(200);
    expect(await keyed.text()).toBe(anonymous);
  });
});
