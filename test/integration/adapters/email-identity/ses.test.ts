/**
 * The SES v2 identity adapter against a loopback fake of SES v2's REST API (SES_ENDPOINT): the
 * requests the AWS SDK makes for CreateEmailIdentity (Easy DKIM, RSA 2048),
 * PutEmailIdentityMailFromAttributes, GetEmailIdentity and DeleteEmailIdentity, an identity that
 * exists already taken over, and SES's NotFoundException read as "none".
 */
import { resetSesClient } from '#adapters/email/ses';
import { sesEmailIdentities } from '#adapters/email-identity/ses';
import { type JsonApiServer, startJsonApiServer } from '#test/fakes/json-api-server';

const TOKENS = ['abcdefghijklmnopqrstuvwxyz234567', 'bcdefghijklmnopqrstuvwxyz2345672', 'cdefghijklmnopqrstuvwxyz23456723'];
const identities = new Map<string, { dkim: string; mailFrom?: string; mailFromStatus?: string }>();
let ses: JsonApiServer;

beforeAll(async () => {
  ses = await startJsonApiServer({
    methods: ['GET', 'POST', 'PUT', 'DELETE'],
    authorised: (headers) => typeof headers.authorization === 'string' && headers.authorization.startsWith('AWS4-HMAC-SHA256 Credential=AKIDTESTSES/'),
    errorBody: (_status, title) => ({ message: title }),
    route: (path, request) => {
      const notFound = { status: 404, body: { __type: 'NotFoundException', message: 'Email identity not found' } };
      if (path === '/v2/email/identities' && request.method === 'POST') {
        const { EmailIdentity } = JSON.parse(request.bodyText) as { EmailIdentity: string };
        if (EmailIdentity === 'limited.acme.com') return { status: 400, body: { __type: 'LimitExceededException', message: 'identity quota reached' } };
        if (identities.has(EmailIdentity)) return { status: 400, body: { __type: 'AlreadyExistsException', message: 'exists' } };
        identities.set(EmailIdentity, { dkim: 'PENDING' });
        return { body: { IdentityType: 'DOMAIN', VerifiedForSendingStatus: false, DkimAttributes: { Status: 'PENDING', Tokens: TOKENS } } };
      }
      const mailFrom = /^\/v2\/email\/identities\/([^/]+)\/mail-from$/.exec(path);
      if (mailFrom !== null && request.method === 'PUT') {
        const identity = identities.get(decodeURIComponent(mailFrom[1] as string));
        if (identity === undefined) return notFound;
        identity.mailFrom = (JSON.parse(request.bodyText) as { MailFromDomain: string }).MailFromDomain;
        identity.mailFromStatus = 'PENDING';
        return { body: {} };
      }
      const one = /^\/v2\/email\/identities\/([^/]+)$/.exec(path);
      const name = one === null ? undefined : decodeURIComponent(one[1] as string);
      const identity = name === undefined ? undefined : identities.get(name);
      if (name === undefined || identity === undefined) return notFound;
      if (request.method === 'DELETE') {
        identities.delete(name);
        return { body: {} };
      }
      return {
        body: {
          IdentityType: 'DOMAIN',
          DkimAttributes: { Status: identity.dkim, Tokens: TOKENS, SigningAttributesOrigin: 'AWS_SES', NextSigningKeyLength: 'RSA_2048_BIT' },
          ...(identity.mailFrom === undefined
            ? {}
            : {
                MailFromAttributes: {
                  MailFromDomain: identity.mailFrom,
                  MailFromDomainStatus: identity.mailFromStatus,
                  BehaviorOnMxFailure: 'USE_DEFAULT_VALUE',
                },
              }),
        },
      };
    },
  });
  Object.assign(process.env, { SES_ENDPOINT: ses.url, AWS_ACCESS_KEY_ID: 'AKIDTESTSES', AWS_SECRET_ACCESS_KEY: 'secret-for-the-fake' });
  resetSesClient();
});

afterAll(async () => {
  for (const name of ['SES_ENDPOINT', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY']) delete process.env[name];
  resetSesClient();
  await ses.stop();
});

describe('the SES v2 identity adapter', () => {
  it('creates an Easy DKIM identity with 2048-bit keys and a MAIL FROM domain, reads its statuses, and deletes it', async () => {
    // Prepare
    const before = ses.requests.length;
    // Act
    const created = await sesEmailIdentities.create('mail.acme.com', 'bounce.mail.acme.com');
    const pending = await sesEmailIdentities.get('mail.acme.com');
    (identities.get('mail.acme.com') as { dkim: string; mailFromStatus?: string }).dkim = 'SUCCESS';
    (identities.get('mail.acme.com') as { dkim: string; mailFromStatus?: string }).mailFromStatus = 'SUCCESS';
    const verified = await sesEmailIdentities.get('mail.acme.com');
    await sesEmailIdentities.remove('mail.acme.com');
    const gone = await sesEmailIdentities.get('mail.acme.com');
    await sesEmailIdentities.remove('mail.acme.com');
    // Assess
    expect(created).toEqual({ dkimTokens: TOKENS });
    expect(pending).toEqual({ dkimStatus: 'PENDING', dkimTokens: TOKENS, mailFromStatus: 'PENDING' });
    expect(verified).toEqual({ dkimStatus: 'SUCCESS', dkimTokens: TOKENS, mailFromStatus: 'SUCCESS' });
    expect(gone).toBeUndefined();
    const requests = ses.requests.slice(before);
    expect(requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      'POST /v2/email/identities',
      'PUT /v2/email/identities/mail.acme.com/mail-from',
      'GET /v2/email/identities/mail.acme.com',
      'GET /v2/email/identities/mail.acme.com',
      'DELETE /v2/email/identities/mail.acme.com',
      'GET /v2/email/identities/mail.acme.com',
      'DELETE /v2/email/identities/mail.acme.com',
    ]);
    expect(JSON.parse(requests[0]?.bodyText ?? '{}')).toEqual({
      EmailIdentity: 'mail.acme.com',
      DkimSigningAttributes: { NextSigningKeyLength: 'RSA_2048_BIT' },
    });
    expect(JSON.parse(requests[1]?.bodyText ?? '{}')).toEqual({ MailFromDomain: 'bounce.mail.acme.com', BehaviorOnMxFailure: 'USE_DEFAULT_VALUE' });
    expect(requests[0]?.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDTESTSES\/\d{8}\/us-east-1\/ses\/aws4_request/);
  });

  it("answers SES's refusal as a 502 upstream error naming it, never a 500", async () => {
    // Act
    const attempt = sesEmailIdentities.create('limited.acme.com', 'bounce.limited.acme.com');
    // Assess
    await expect(attempt).rejects.toMatchObject({ statusCode: 502, code: 'upstream_error', message: expect.stringContaining('LimitExceededException') });
  });

  it('takes over an identity that exists already (a setup retried), reading its tokens instead', async () => {
    // Prepare
    await sesEmailIdentities.create('news.acme.com', 'bounce.news.acme.com');
    const before = ses.requests.length;
    // Act
    const again = await sesEmailIdentities.create('news.acme.com', 'bounce.news.acme.com');
    // Assess
    expect(again).toEqual({ dkimTokens: TOKENS });
    expect(ses.requests.slice(before).map((request) => `${request.method} ${request.path}`)).toEqual([
      'POST /v2/email/identities',
      'GET /v2/email/identities/news.acme.com',
      'PUT /v2/email/identities/news.acme.com/mail-from',
    ]);
  });
});
