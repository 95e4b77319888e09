import { randomBytes } from 'node:crypto';
import { type JsonApiServer, startJsonApiServer } from './json-api-server';

export const TWILIO_ACCOUNT_SID = `AC${'0123456789abcdef'.repeat(2)}`;
export const TWILIO_API_TOKEN = 'twilio_api_token_for_tests_abcdef012345';

/**
 * Twilio's Create Message API on loopback (`POST /2010-04-01/Accounts/{AccountSid}/Messages.json`),
 * answering as Twilio does: 201 with the Message resource (`sid` `SM…`, `status: queued`), 401
 * `{ code: 20003 }` for a bad Basic credential, and 400 `{ code: 21211 }` for a `To` that is not a
 * valid number (`+15005550001`, Twilio's own magic test number for it).
 */
export function startTwilioApi(): Promise<JsonApiServer> {
  const expected = `Basic ${Buffer.from(`${TWILIO_ACCOUNT_SID}:${TWILIO_API_TOKEN}`).toString('base64')}`;
  return startJsonApiServer({
    methods: ['POST'],
    authorised: (headers) => headers.authorization === expected,
    errorBody: (status, title) => ({ code: status === 401 ? 20003 : 20404, message: title, more_info: 'https://www.twilio.com/docs/errors', status }),
    route: (path, request) => {
      if (path !== `/2010-04-01/Accounts/${TWILIO_ACCOUNT_SID}/Messages.json`) return undefined;
      const form = new URLSearchParams(request.bodyText);
      const to = form.get('To') ?? '';
      if (to.replace(/^whatsapp:/, '') === '+15005550001')
        return {
          status: 400,
          body: {
            code: 21211,
            message: `The 'To' number ${to} is not a valid phone number.`,
            more_info: 'https://www.twilio.com/docs/errors/21211',
            status: 400,
          },
        };
      const now = new Date().toUTCString();
      return {
        status: 201,
        body: {
          account_sid: TWILIO_ACCOUNT_SID,
          api_version: '2010-04-01',
          body: form.get('Body') ?? '',
          date_created: now,
          date_updated: now,
          date_sent: null,
          direction: 'outbound-api',
          error_code: null,
          error_message: null,
          from: form.get('From'),
          messaging_service_sid: null,
          num_media: '0',
          num_segments: '1',
          price: null,
          price_unit: 'USD',
          sid: `SM${randomBytes(16).toString('hex')}`,
          status: 'queued',
          to,
          uri: `/2010-04-01/Accounts/${TWILIO_ACCOUNT_SID}/Messages.json`,
        },
      };
    },
  });
}
