/**
 * The CRM client secrets as the crm function reads them (functions/adapters/crm/http.ts
 * crmClientSecret): on AWS from the Secrets Manager secret CRM_<X>_CLIENT_SECRET_ARN names, here
 * a loopback stand-in for Secrets Manager's JSON API (the SDK pointed at it by
 * AWS_ENDPOINT_URL_SECRETS_MANAGER). Read once per container; a failed read is `unavailable` and
 * is tried again next time; the plain variable wins when set (local).
 */
import type { CrmError } from '#core/crm';
import { type JsonApiServer, startJsonApiServer } from '#test/fakes/json-api-server';

const ARN_A = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:Recovery-dev-CrmAClientSecret-AbCdEf';
const ARN_B = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:Recovery-dev-CrmBClientSecret-GhIjKl';
const VARIABLES = {
  CRM_A_CLIENT_SECRET_ARN: ARN_A,
  CRM_B_CLIENT_SECRET_ARN: ARN_B,
  AWS_ACCESS_KEY_ID: 'AKIDLOCALTEST',
  AWS_SECRET_ACCESS_KEY: 'local-test-secret',
} as const;

describe('crmClientSecret', () => {
  let secretsManager: JsonApiServer;
  const stored = new Map<string, string>();
  const saved: Record<string, string | undefined> = {};
  let crmClientSecret: (crm: 'crm_a' | 'crm_b') => Promise<string>;
  const reads = (arn: string) => secretsManager.requests.filter((request) => (JSON.parse(request.bodyText) as { SecretId: string }).SecretId === arn).length;

  beforeAll(async () => {
    secretsManager = await startJsonApiServer({
      methods: ['POST'],
      authorised: (headers) => String(headers.authorization ?? '').includes('AKIDLOCALTEST'),
      route: (_path, request) => {
        if (request.headers['x-amz-target'] !== 'secretsmanager.GetSecretValue')
          return { status: 400, body: { __type: 'InvalidRequestException', message: 'unknown action' } };
        const { SecretId } = JSON.parse(request.bodyText) as { SecretId: string };
        const value = stored.get(SecretId);
        if (value === undefined)
          return { status: 400, body: { __type: 'ResourceNotFoundException', message: "Secrets Manager can't find the specified secret." } };
        return { body: { ARN: SecretId, Name: SecretId.split(':').at(-1), SecretString: value, VersionId: 'v1' } };
      },
    });
    for (const [name, value] of Object.entries({ ...VARIABLES, AWS_ENDPOINT_URL_SECRETS_MANAGER: secretsManager.url })) {
      saved[name] = process.env[name];
      process.env[name] = value;
    }
    for (const name of ['CRM_A_CLIENT_SECRET', 'CRM_B_CLIENT_SECRET']) {
      saved[name] = process.env[name];
      delete process.env[name];
    }
    // Loaded only now: functions/shared/env.ts reads the ARNs once, on import.
    ({ crmClientSecret } = await import('#adapters/crm/http'));
  });

  afterAll(async () => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    await secretsManager.stop();
  });

  it('reads the secret the ARN names once, then answers from memory', async () => {
    // Prepare
    stored.set(ARN_A, 'crm-a-client-secret-v1');

    // Act
    const first = await crmClientSecret('crm_a');
    stored.set(ARN_A, 'crm-a-client-secret-v2');
    const second = await crmClientSecret('crm_a');

    // Assess
    expect([first, second]).toEqual(['crm-a-client-secret-v1', 'crm-a-client-secret-v1']);
    expect(reads(ARN_A)).toBe(1);
  });

  it('answers a secret it cannot read as unavailable, without the value or a 500, and reads it again next time', async () => {
    // Act
    const failed = await crmClientSecret('crm_b').catch((error: unknown) => error as CrmError);
    stored.set(ARN_B, 'crm-b-client-secret');
    const recovered = await crmClientSecret('crm_b');

    // Assess
    expect(failed).toMatchObject({
      name: 'CrmError',
      crm: 'crm_b',
      kind: 'unavailable',
      message: 'crm_b: the client secret (CRM_B_CLIENT_SECRET_ARN) could not be read',
    });
    expect(recovered).toBe('crm-b-client-secret');
    expect(reads(ARN_B)).toBe(2);
  });

  it('prefers the plain variable when it is set (the local stack), reading no secret', async () => {
    // Prepare
    process.env.CRM_B_CLIENT_SECRET = 'plain-local-secret';
    const before = secretsManager.requests.length;

    // Act
    const secret = await crmClientSecret('crm_b');

    // Assess
    expect(secret).toBe('plain-local-secret');
    expect(secretsManager.requests.length).toBe(before);
    delete process.env.CRM_B_CLIENT_SECRET;
  });
});
