import type { APIGatewayProxyEvent } from 'aws-lambda';
import { requestOrigin } from '#api/openapi/served-origins';

const eventWith = (headers: Record<string, string>, requestContext: Partial<APIGatewayProxyEvent['requestContext']> = {}): APIGatewayProxyEvent =>
  ({ headers, requestContext: { domainName: 'localhost', stage: 'local', ...requestContext } }) as unknown as APIGatewayProxyEvent;

describe('requestOrigin', () => {
  it('gives the scheme, host and port the local server was reached at', () => {
    // Act
    const origin = requestOrigin(eventWith({ Host: '127.0.0.1:40123' }));
    // Assess
    expect(origin).toBe('http://127.0.0.1:40123');
  });

  it("gives https and the stage path on API Gateway's own execute-api host", () => {
    // Act
    const origin = requestOrigin(eventWith({ Host: 'abc123.execute-api.eu-west-1.amazonaws.com', 'X-Forwarded-Proto': 'https' }, { stage: 'prod' }));
    // Assess
    expect(origin).toBe('https://abc123.execute-api.eu-west-1.amazonaws.com/prod');
  });

  it('follows X-Forwarded-Proto on a custom domain, which carries no stage', () => {
    // Act
    const origin = requestOrigin(eventWith({ host: 'api.example.com', 'x-forwarded-proto': 'https' }, { stage: 'prod' }));
    // Assess
    expect(origin).toBe('https://api.example.com');
  });

  it('ignores a Host header that is not a host name, so no header writes text into the document', () => {
    // Act
    const origins = ['evil.example.com/"><script>', 'a b', 'example.com:99999999', 'user@example.com'].map((host) => requestOrigin(eventWith({ Host: host })));
    // Assess
    expect(origins).toEqual([undefined, undefined, undefined, undefined]);
  });
});
