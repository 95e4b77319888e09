import type { CfnElement } from 'aws-cdk-lib';
import { EMAIL_IDENTITY_ACTIONS } from '#lib/constructs/email-identities';
import { logicalIdOf, policyStatementsOfRole, synthService } from '#test/infra/synth-service';

const roleIdOf = (fn: { function: { role?: { node: { defaultChild?: unknown } } } }): string => logicalIdOf(fn.function.role?.node.defaultChild as CfnElement);
const identityArn = {
  'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':ses:', { Ref: 'AWS::Region' }, ':', { Ref: 'AWS::AccountId' }, ':identity/*']],
};

describe('SES identity grants of email sending domains', () => {
  it('grants the email-domain function exactly the four identity actions its adapter calls, and points it at SES and the sending domain', () => {
    // Prepare
    const { service, template } = synthService();
    const fn = service.apis.edge.restApi.functionForGroup('email-domain');
    // Act
    const t = template(service.apis.edge);
    const ses = policyStatementsOfRole(t, roleIdOf(fn as never)).filter((statement) => JSON.stringify(statement.Action).includes('ses:'));
    // Assess
    expect(ses).toHaveLength(1);
    expect([...((ses[0]?.Action ?? []) as string[])].sort()).toEqual([...EMAIL_IDENTITY_ACTIONS].sort());
    expect(ses[0]?.Resource).toEqual(identityArn);
    const variables = t.findResources('AWS::Lambda::Function')[logicalIdOf(fn.function.node.defaultChild as CfnElement)]?.Properties.Environment.Variables;
    expect(variables).toMatchObject({
      EMAIL_IDENTITY_DRIVER: 'ses',
      SENDING_DOMAIN: 'dev.recovery.example.com',
      EMAIL_FROM: 'no-reply@dev.recovery.example.com',
    });
  });

  it('grants the daily job only ses:GetEmailIdentity (the pending re-check), and no other API function any SES action', () => {
    // Prepare
    const { service, template } = synthService();
    const daily = service.jobs.jobs.get('daily')?.fn;
    // Act
    const jobs = template(service.jobs);
    const dailySes = policyStatementsOfRole(jobs, roleIdOf(daily as never)).filter((statement) => JSON.stringify(statement.Action).includes('ses:'));
    // Assess
    expect(dailySes).toEqual([expect.objectContaining({ Effect: 'Allow', Action: 'ses:GetEmailIdentity', Resource: identityArn })]);
    expect(
      jobs.findResources('AWS::Lambda::Function')[logicalIdOf(daily?.function.node.defaultChild as CfnElement)]?.Properties.Environment.Variables,
    ).toMatchObject({
      EMAIL_IDENTITY_DRIVER: 'ses',
      SENDING_DOMAIN: 'dev.recovery.example.com',
    });
    for (const name of ['every-minute', 'hourly'] as const) {
      const fn = service.jobs.jobs.get(name)?.fn;
      expect(policyStatementsOfRole(jobs, roleIdOf(fn as never)).filter((statement) => JSON.stringify(statement.Action).includes('ses:'))).toEqual([]);
    }
    for (const api of Object.values(service.apis)) {
      const t = template(api);
      for (const group of api.restApi.groups) {
        if (group === 'email-domain') continue;
        const statements = policyStatementsOfRole(t, roleIdOf(api.restApi.functionForGroup(group) as never));
        expect({ group, ses: statements.filter((statement) => JSON.stringify(statement.Action).includes('ses:')) }).toEqual({ group, ses: [] });
      }
    }
  });
});
