import type { SESv2Client } from '@aws-sdk/client-sesv2';
import { InternalError } from '#core/errors';
import { messageBodyOf } from '#core/messages';
import { getSentMarker, putSentMarker } from '#data/channel-repository';
import { env } from '#shared/env';
import type { EmailSender, OutgoingEmail } from './email-sender';

let client: Promise<{ client: SESv2Client; sdk: typeof import('@aws-sdk/client-sesv2') }> | undefined;

/** The SES v2 client and its commands, loaded on first use (SES_ENDPOINT points it at a test double); shared by the sender and the identity adapter. */
export function sesV2() {
  client ??= import('@aws-sdk/client-sesv2').then((sdk) => {
    const endpoint = process.env.SES_ENDPOINT ?? env.SES_ENDPOINT;
    return { client: new sdk.SESv2Client(endpoint === undefined ? {} : { endpoint }), sdk };
  });
  return client;
}

/** Forgets the client (tests that move SES_ENDPOINT). */
export const resetSesClient = (): void => {
  client = undefined;
};

/** The From of an email: the merchant's name as display name (RFC 2047 encoded when not plain ASCII), our address. */
export function fromHeader(address: string, name: string | undefined): string {
  if (name === undefined || name.trim() === '') return address;
  const display = /^[\x20-\x7e]*$/.test(name) ? `"${name.replace(/["\\]/g, '\\$&')}"` : `=?UTF-8?B?${Buffer.from(name, 'utf8').toString('base64')}?=`;
  return `${display} <${address}>`;
}

/**
 * The EmailSender on AWS: SES v2 `SendEmail` with Simple content (subject, text and html bodies:
 * SES composes the multipart/alternative MIME) and our headers (RFC 8058 `List-Unsubscribe` and
 * `List-Unsubscribe-Post`), from EMAIL_FROM with the merchant's name, in the configuration set
 * SES_CONFIGURATION_SET (its event destination feeds the delivery-status path). Simple rather than
 * Raw keeps a MIME composer out of the Lambda bundle; the cost is that SES sets the Message-ID
 * (`<SES MessageId@email.amazonses.com>`), and SES's MessageId is the provider message id the
 * delivery events name. We keep unsubscribes ourselves, so no `ListManagementOptions`. Resend
 * dedupe: a marker per message (ids only) written after the send; a message with a marker returns
 * the first result without calling SES.
 */
export const sesEmailSender: EmailSender = {
  name: 'ses',
  async send(email: OutgoingEmail) {
    const body = messageBodyOf(email.messageId);
    if (body === undefined) throw new InternalError(`Emails are keyed by a message id, not "${email.messageId}"`);
    const already = await getSentMarker(email.merchantId, body);
    if (already !== undefined) return already;
    const from = email.fromAddress ?? process.env.EMAIL_FROM ?? env.EMAIL_FROM;
    const {
      client: sesClient,
      sdk: { SendEmailCommand },
    } = await sesV2();
    const configurationSet = process.env.SES_CONFIGURATION_SET ?? env.SES_CONFIGURATION_SET;
    const result = await sesClient.send(
      new SendEmailCommand({
        FromEmailAddress: fromHeader(from, email.fromName),
        Destination: { ToAddresses: [email.to] },
        Content: {
          Simple: {
            Subject: { Data: email.subject, Charset: 'UTF-8' },
            Body: { Text: { Data: email.text, Charset: 'UTF-8' }, ...(email.html === undefined ? {} : { Html: { Data: email.html, Charset: 'UTF-8' } }) },
            Headers: Object.entries(email.headers ?? {}).map(([Name, Value]) => ({ Name, Value })),
          },
        },
        ...(configurationSet === undefined ? {} : { ConfigurationSetName: configurationSet }),
        EmailTags: [
          { Name: 'merchant_id', Value: email.merchantId.replace(/[^A-Za-z0-9_-]/g, '_') },
          { Name: 'message_id', Value: email.messageId.replace(/[^A-Za-z0-9_-]/g, '_') },
        ],
      }),
    );
    if (result.MessageId === undefined) throw new InternalError('SES accepted the email without a MessageId');
    return putSentMarker(email.merchantId, email.customerId, body, { provider: 'ses', providerMessageId: result.MessageId });
  },
};
