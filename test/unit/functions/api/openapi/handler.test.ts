import { handler } from '#api/openapi/handler';
import { routes } from '#api/routes';
import { toApiGatewayEvent } from '#lib/local/api-gateway-event';
import { createLambdaContext } from '#lib/local/lambda-context';
import { RouteMatcher } from '#lib/local/route-matcher';

const requestFor = (url: string) => {
  const match = new RouteMatcher(routes).match('GET', url);
  if (match === undefined || 'allowed' in match) throw new Error(`no row for GET ${url}`);
  return toApiGatewayEvent({ method: 'GET', url, rawHeaders: ['Host', 'localhost'], body: Buffer.alloc(0), sourceIp: '127.0.0.1' }, match, 'req-openapi-1');
};

describe('the openapi handler', () => {
  it('serves the OpenAPI document unwrapped, as JSON cacheable for five minutes, when called without a key', async () => {
    // Prepare
    const event = requestFor('/api/v1/openapi.json');
    // Act
    const response = await handler(event, createLambdaContext('recovery-openapi'));
    // Assess
    const document = JSON.parse(response.body) as { openapi: string; info: { version: string }; paths: Record<string, unknown>; data?: unknown };
    expect(response.statusCode).toBe(200);
    expect(response.headers).toMatchObject({ 'Content-Type': 'application/json', 'Cache-Control': 'public, max-age=300', 'X-Request-Id': 'req-openapi-1' });
    expect(document.openapi).toBe('3.1.0');
    expect(document.data).toBeUndefined();
    expect(document.info.version).toBe(process.env.SERVICE_VERSION ?? '0.1.0');
    expect(Object.keys(document.paths)).toContain('/api/v1/openapi.json');
  });
});
