import { routes } from '#api/routes';
import { toApiGatewayEvent } from '#lib/local/api-gateway-event';
import { RouteMatcher } from '#lib/local/route-matcher';

describe('toApiGatewayEvent', () => {
  const matcher = new RouteMatcher(routes);
  const matchOf = (method: string, path: string) => {
    const match = matcher.match(method, path);
    if (match === undefined || !('route' in match)) throw new Error(`no route for ${method} ${path}`);
    return match;
  };

  it('builds a REST proxy event with resource, path parameters, headers, query strings and body', () => {
    // Prepare
    const body = Buffer.from('{"a":"é"}', 'utf8');
    const url = '/api/v1/payments/pe_1%2Fx/timeline?status=pending&tag=a&tag=b%20c&flag';
    // Act
    const event = toApiGatewayEvent(
      {
        method: 'GET',
        url,
        rawHeaders: ['Host', 'localhost:3000', 'X-Api-Key', 'rk_test_1', 'Accept', 'text/plain', 'Accept', 'application/json'],
        body,
        sourceIp: '127.0.0.1',
      },
      matchOf('GET', '/api/v1/payments/pe_1%2Fx/timeline'),
      'req-1',
      new Date('2026-11-22T15:56:14Z'),
    );
    // Assess
    expect(event.resource).toBe('/api/v1/payments/{id}/timeline');
    expect(event.path).toBe('/api/v1/payments/pe_1%2Fx/timeline');
    expect(event.pathParameters).toEqual({ id: 'pe_1%2Fx' });
    expect(event.headers).toEqual({ Host: 'localhost:3000', 'X-Api-Key': 'rk_test_1', Accept: 'application/json' });
    expect(event.multiValueHeaders.Accept).toEqual(['text/plain', 'application/json']);
    expect(event.queryStringParameters).toEqual({ status: 'pending', tag: 'b c', flag: '' });
    expect(event.multiValueQueryStringParameters).toEqual({ status: ['pending'], tag: ['a', 'b c'], flag: [''] });
    expect(event.body).toBe('{"a":"é"}');
    expect(event.isBase64Encoded).toBe(false);
    expect(event.requestContext.requestId).toBe('req-1');
    expect(event.requestContext.resourcePath).toBe('/api/v1/payments/{id}/timeline');
    expect(event.requestContext.requestTime).toBe('22/Nov/2026:15:56:14 +0000');
    expect(event.requestContext.requestTimeEpoch).toBe(Date.parse('2026-11-22T15:56:14Z'));
    expect(event.requestContext.identity.sourceIp).toBe('127.0.0.1');
  });

  it('gives null query strings, path parameters and body when there are none', () => {
    // Act
    const event = toApiGatewayEvent(
      { method: 'GET', url: '/health', rawHeaders: [], body: Buffer.alloc(0), sourceIp: '::1' },
      matchOf('GET', '/health'),
      'req-2',
    );
    // Assess
    expect(event.queryStringParameters).toBeNull();
    expect(event.multiValueQueryStringParameters).toBeNull();
    expect(event.pathParameters).toBeNull();
    expect(event.body).toBeNull();
  });

  it('keeps a malformed percent escape in a query string as sent', () => {
    // Act
    const event = toApiGatewayEvent(
      { method: 'GET', url: '/api/v1/payments?q=%E0%A4%A', rawHeaders: [], body: Buffer.alloc(0), sourceIp: '::1' },
      matchOf('GET', '/api/v1/payments'),
      'req-3',
    );
    // Assess
    expect(event.queryStringParameters).toEqual({ q: '%E0%A4%A' });
  });

  it('keeps query keys named like Object.prototype members as plain values', () => {
    // Act
    const event = toApiGatewayEvent(
      { method: 'GET', url: '/api/v1/payments?toString=a&__proto__=b&constructor=c&toString=d', rawHeaders: [], body: Buffer.alloc(0), sourceIp: '::1' },
      matchOf('GET', '/api/v1/payments'),
      'req-4',
    );
    // Assess
    expect(event.queryStringParameters?.toString).toBe('d');
    expect(Object.getOwnPropertyDescriptor(event.queryStringParameters, '__proto__')?.value).toBe('b');
    expect(event.multiValueQueryStringParameters?.toString).toEqual(['a', 'd']);
    expect(Object.getPrototypeOf(event.queryStringParameters)).toBe(Object.prototype);
  });
});
