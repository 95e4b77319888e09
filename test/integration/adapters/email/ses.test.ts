/**
 * The SES v2 email adapter against a loopback fake of SES v2's REST API (SES_ENDPOINT): the
 * request the AWS SDK makes (`POST /v2/email/outbound-emails`, SigV4-signed, JSON with Simple
 * content: subject, text and html, our List-Unsubscribe headers), and resend dedupe.
 */
import { resetSesClient, sesEmailSender } from '#adapters/email/ses';
import { timeOrderedId } from '#core/ids';
import { getSentMarker } from '#data/channel-repository';
import { createMerchant } from '#data/merchant-repository';
import { type JsonApiServer, startJsonApiServer } from '#test/fakes/json-api-server';

let ses: JsonApiServer;
let sequence = 0;

beforeAll(async () => {
  ses = await startJsonApiServer({
    methods: ['POST'],
    authorised: (headers) => typeof headers.authorization === 'string' && headers.authorization.startsWith('AWS4-HMAC-SHA256 Credential=AKIDTESTSES/'),
    errorBody: (_status, title) => ({ message: title }),
    route: (path) => {
      if (path !== '/v2/email/outbound-emails') return undefined;
      sequence += 1;
      return { body: { MessageId: `0100018c-ses-test-${sequence}` } };
    },
  });
  Object.assign(process.env, {
    SES_ENDPOINT: ses.url,
    SES_CONFIGURATION_SET: 'recovery-dev-emails',
    EMAIL_FROM: 'billing@mail.example.com',
    AWS_ACCESS_KEY_ID: 'AKIDTESTSES',
    AWS_SECRET_ACCESS_KEY: 'secret-for-the-fake',
  });
  resetSesClient();
});

afterAll(async () => {
  for (const name of ['SES_ENDPOINT', 'SES_CONFIGURATION_SET', 'EMAIL_FROM', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY']) delete process.env[name];
  await ses.stop();
});

describe('the SES v2 email adapter', () => {
  it('sends subject, text, html and the RFC 8058 headers through SendEmail in the configuration set, keeps SES MessageId, and does not send a message twice', async () => {
    // Prepare
    const merchant = await createMerchant({ name: 'SES Co' });
    const messageId = `msg_${timeOrderedId(new Date())}`;
    const email = {
      merchantId: merchant.id,
      customerId: 'cust_ses',
      to: 'grace@example.com',
      subject: 'Your payment did not go through',
      text: 'Hello Grace,\nUnsubscribe: https://edge.example.com/unsubscribe/abc.def',
      html: '<p>Hello Grace,</p><p><a href="https://edge.example.com/unsubscribe/abc.def">Unsubscribe</a></p>',
      headers: { 'List-Unsubscribe': '<https://edge.example.com/unsubscribe/abc.def>', 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
      fromName: 'SES Co',
      messageId,
    };
    const before = ses.requests.length;

    // Act
    const first = await sesEmailSender.send(email);
    const second = await sesEmailSender.send(email);

    // Assess: one request, as the SDK makes it
    const requests = ses.requests.slice(before);
    expect(requests).toHaveLength(1);
    const request = requests[0];
    expect(request?.method).toBe('POST');
    expect(request?.path).toBe('/v2/email/outbound-emails');
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDTESTSES\/\d{8}\/us-east-1\/ses\/aws4_request/);
    const body = JSON.parse(request?.bodyText ?? '{}') as {
      FromEmailAddress: string;
      Destination: { ToAddresses: string[] };
      ConfigurationSetName: string;
      Content: { Simple: { Subject: { Data: string }; Body: { Text: { Data: string }; Html: { Data: string } }; Headers: { Name: string; Value: string }[] } };
      EmailTags: { Name: string; Value: string }[];
    };
    expect(body).toMatchObject({
      FromEmailAddress: '"SES Co" <billing@mail.example.com>',
      Destination: { ToAddresses: ['grace@example.com'] },
      ConfigurationSetName: 'recovery-dev-emails',
    });
    expect(body.EmailTags).toEqual(expect.arrayContaining([{ Name: 'message_id', Value: messageId }]));
    expect(body.Content.Simple).toEqual({
      Subject: { Data: 'Your payment did not go through', Charset: 'UTF-8' },
      Body: { Text: { Data: email.text, Charset: 'UTF-8' }, Html: { Data: email.html, Charset: 'UTF-8' } },
      Headers: [
        { Name: 'List-Unsubscribe', Value: '<https://edge.example.com/unsubscribe/abc.def>' },
        { Name: 'List-Unsubscribe-Post', Value: 'List-Unsubscribe=One-Click' },
      ],
    });
    // SES's id is the provider id (the one its events name), and a resend returns it
    expect(first).toEqual({ provider: 'ses', providerMessageId: expect.stringMatching(/^0100018c-ses-test-\d+$/) });
    expect(second).toEqual(first);
    expect(await getSentMarker(merchant.id, messageId.slice(4))).toEqual(first);
  });

  it("throws (the queue redelivers) when SES still answers 5xx after the SDK's own three attempts, and records nothing", async () => {
    // Prepare
    const merchant = await createMerchant({ name: 'SES Down' });
    const messageId = `msg_${timeOrderedId(new Date())}`;
    for (let attempt = 0; attempt < 3; attempt += 1) ses.failNextWith(503);
    // Act
    const attempt = sesEmailSender.send({ merchantId: merchant.id, customerId: 'cust_x', to: 'x@example.com', subject: 's', text: 't', messageId });
    // Assess
    await expect(attempt).rejects.toThrow();
    expect(ses.requests.slice(-3).map((request) => request.path)).toEqual(Array(3).fill('/v2/email/outbound-emails'));
    expect(await getSentMarker(merchant.id, messageId.slice(4))).toBeUndefined();
  });
});
