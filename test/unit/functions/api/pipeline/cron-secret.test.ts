import type { APIGatewayProxyEvent } from 'aws-lambda';
import { InvalidApiKeyError } from '#core/errors';

type Verify = (event: APIGatewayProxyEvent) => Promise<void>;

/** verifyCronSecret from a fresh module registry, with the environment it reads at load set as given. */
function loadWith(variables: { CRON_SECRET?: string }): Verify {
  const saved = { CRON_SECRET: process.env.CRON_SECRET, CRON_SECRET_ARN: process.env.CRON_SECRET_ARN };
  delete process.env.CRON_SECRET;
  delete process.env.CRON_SECRET_ARN;
  if (variables.CRON_SECRET !== undefined) process.env.CRON_SECRET = variables.CRON_SECRET;
  let verify: Verify | undefined;
  jest.isolateModules(() => {
    verify = (require('#api/pipeline/cron-secret') as { verifyCronSecret: Verify }).verifyCronSecret;
  });
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  return verify as Verify;
}

const eventWith = (headers: Record<string, string>): APIGatewayProxyEvent =>
  ({ headers, resource: '/api/internal/scoring/update-lookup' }) as unknown as APIGatewayProxyEvent;

const SECRET = 'unit-test-cron-secret-0123456789';

describe('verifyCronSecret', () => {
  it("admits the configured secret as a Bearer token, whatever the header name's case", async () => {
    // Prepare
    const verify = loadWith({ CRON_SECRET: SECRET });
    // Act and assess
    await expect(verify(eventWith({ Authorization: `Bearer ${SECRET}` }))).resolves.toBeUndefined();
    await expect(verify(eventWith({ authorization: `bearer ${SECRET}` }))).resolves.toBeUndefined();
  });

  it.each([
    ['no header', {}],
    ['an empty Bearer', { Authorization: 'Bearer ' }],
    ['another secret of the same length', { Authorization: `Bearer ${SECRET.slice(0, -1)}X` }],
    ['the secret with a suffix', { Authorization: `Bearer ${SECRET}0` }],
    ['the secret under Basic', { Authorization: `Basic ${SECRET}` }],
  ])('refuses %s with invalid_api_key', async (_what, headers) => {
    // Prepare
    const verify = loadWith({ CRON_SECRET: SECRET });
    // Act and assess
    await expect(verify(eventWith(headers))).rejects.toMatchObject({ statusCode: 401, code: 'invalid_api_key' });
  });

  it('refuses every caller when no secret is configured', async () => {
    // Prepare
    const verify = loadWith({});
    // Act
    const attempt = verify(eventWith({ Authorization: 'Bearer anything-at-all-0123456789' }));
    // Assess
    await expect(attempt).rejects.toBeInstanceOf(Error);
    await expect(attempt).rejects.toMatchObject({ name: InvalidApiKeyError.name, statusCode: 401 });
  });
});
