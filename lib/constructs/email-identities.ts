import { Stack, Validations } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { domainOfAddress } from '#lib/config/email';
import type { GroupFunction } from './group-function';

/** Every SES action the identity adapter calls (functions/adapters/email-identity/ses.ts). */
export const EMAIL_IDENTITY_ACTIONS = [
  'ses:CreateEmailIdentity',
  'ses:PutEmailIdentityMailFromAttributes',
  'ses:GetEmailIdentity',
  'ses:DeleteEmailIdentity',
] as const;
export type EmailIdentityAction = (typeof EMAIL_IDENTITY_ACTIONS)[number];

/**
 * Points a function's SES identity port at SES v2 (`EMAIL_IDENTITY_DRIVER=ses`; `SENDING_DOMAIN`,
 * the domain of `emailFrom`; `EMAIL_FROM`, whose local part sending domains' addresses keep) and
 * grants it exactly `actions` on the account's domain identities. The resource is `identity/*`:
 * merchants' domains are named at run time, so no narrower ARN exists at deploy time.
 */
export function bindEmailIdentities(fn: GroupFunction, emailFrom: string, actions: readonly EmailIdentityAction[]): void {
  fn.function.addEnvironment('EMAIL_IDENTITY_DRIVER', 'ses');
  fn.function.addEnvironment('SENDING_DOMAIN', domainOfAddress(emailFrom));
  fn.function.addEnvironment('EMAIL_FROM', emailFrom);
  fn.function.addToRolePolicy(
    new PolicyStatement({ actions: [...actions], resources: [Stack.of(fn).formatArn({ service: 'ses', resource: 'identity', resourceName: '*' })] }),
  );
  if (fn.function.role !== undefined) {
    Validations.of(fn.function.role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:ses:<AWS::Region>:<AWS::AccountId>:identity/*]',
      reason:
        "Merchants' sending domains are SES identities named at run time (docs/email-domains.md); only the identity actions the adapter calls are granted.",
    });
  }
}
