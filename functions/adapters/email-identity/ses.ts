import { sesV2 as ses } from '#adapters/email/ses';
import { DKIM_STATUSES, type DkimStatus, MAIL_FROM_STATUSES, type MailFromStatus } from '#core/email-domains';
import { UpstreamError } from '#core/errors';
import type { EmailIdentityPort } from './port';

const isNamed = (error: unknown, name: string): boolean => (error as Error | undefined)?.name === name;

/** SES's refusal (throttling, a quota, an outage) as a 502 whose message names SES's error, never a 500. */
function upstream(error: unknown): never {
  if (typeof (error as { $fault?: unknown } | undefined)?.$fault === 'string')
    throw new UpstreamError(`Amazon SES refused the request (${(error as Error).name}); retry later`, { cause: error });
  throw error;
}
const dkimStatusOf = (value: string | undefined): DkimStatus =>
  (DKIM_STATUSES as readonly string[]).includes(value ?? '') ? (value as DkimStatus) : 'NOT_STARTED';
const mailFromStatusOf = (value: string | undefined): MailFromStatus | null =>
  (MAIL_FROM_STATUSES as readonly string[]).includes(value ?? '') ? (value as MailFromStatus) : null;

/**
 * SES v2 domain identities, with exactly the calls the infrastructure grants (lib/constructs/
 * email-identities.ts): CreateEmailIdentity (Easy DKIM, RSA 2048), PutEmailIdentityMailFromAttributes
 * (MAIL FROM `bounce.<domain>`, falling back to SES's own MAIL FROM while its MX is missing),
 * GetEmailIdentity and DeleteEmailIdentity. An identity that exists already (a setup retried after
 * a partial failure) is read back instead of created.
 */
export const sesEmailIdentities: EmailIdentityPort = {
  name: 'ses',
  async create(domain, mailFromDomain) {
    const { client, sdk } = await ses();
    let tokens: string[] | undefined;
    try {
      const created = await client.send(
        new sdk.CreateEmailIdentityCommand({ EmailIdentity: domain, DkimSigningAttributes: { NextSigningKeyLength: 'RSA_2048_BIT' } }),
      );
      tokens = created.DkimAttributes?.Tokens;
    } catch (error) {
      if (!isNamed(error, 'AlreadyExistsException')) upstream(error);
      tokens = (await client.send(new sdk.GetEmailIdentityCommand({ EmailIdentity: domain })).catch(upstream)).DkimAttributes?.Tokens;
    }
    await client
      .send(
        new sdk.PutEmailIdentityMailFromAttributesCommand({ EmailIdentity: domain, MailFromDomain: mailFromDomain, BehaviorOnMxFailure: 'USE_DEFAULT_VALUE' }),
      )
      .catch(upstream);
    return { dkimTokens: [...(tokens ?? [])] };
  },
  async get(domain) {
    const { client, sdk } = await ses();
    try {
      const identity = await client.send(new sdk.GetEmailIdentityCommand({ EmailIdentity: domain }));
      return {
        dkimStatus: dkimStatusOf(identity.DkimAttributes?.Status),
        dkimTokens: [...(identity.DkimAttributes?.Tokens ?? [])],
        mailFromStatus: identity.MailFromAttributes?.MailFromDomain ? mailFromStatusOf(identity.MailFromAttributes.MailFromDomainStatus) : null,
      };
    } catch (error) {
      if (isNamed(error, 'NotFoundException')) return undefined;
      upstream(error);
    }
  },
  async remove(domain) {
    const { client, sdk } = await ses();
    try {
      await client.send(new sdk.DeleteEmailIdentityCommand({ EmailIdentity: domain }));
    } catch (error) {
      if (!isNamed(error, 'NotFoundException')) upstream(error);
    }
  },
};
