import type { CfnElement } from 'aws-cdk-lib';
import { Match } from 'aws-cdk-lib/assertions';
import { SES_EVENT_DETAIL_TYPES } from '#contracts/email-events';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { addComplianceChecks, createRecoveryService } from '#lib/stacks/recovery-service';
import { logicalIdOf, policyStatementsOfRole, synthService } from '#test/infra/synth-service';

const roleIdOf = (fn: { function: { role?: { node: { defaultChild?: unknown } } } }): string => logicalIdOf(fn.function.role?.node.defaultChild as CfnElement);

describe('email sending on AWS (SES v2)', () => {
  it('publishes bounce, complaint, delivery, open, click and reject events of its configuration set to the default EventBridge bus', () => {
    // Prepare
    const { service, template } = synthService();
    // Act
    const t = template(service.jobs);
    // Assess
    t.hasResourceProperties('AWS::SES::ConfigurationSet', { Name: 'recovery-dev-emails' });
    const destinations = Object.values(t.findResources('AWS::SES::ConfigurationSetEventDestination'));
    expect(destinations).toHaveLength(1);
    const destination = destinations[0]?.Properties.EventDestination;
    expect(destination.Enabled).toBe(true);
    expect([...destination.MatchingEventTypes].sort()).toEqual(['bounce', 'click', 'complaint', 'delivery', 'open', 'reject']);
    expect(JSON.stringify(destination.EventBridgeDestination.EventBusArn)).toContain(':event-bus/default');
  });

  it('routes those events to the delivery-status consumer, with retries and a dead-letter queue', () => {
    // Prepare
    const { service, template } = synthService();
    const email = service.jobs.email;
    // Act
    const t = template(service.jobs);
    // Assess
    t.hasResourceProperties('AWS::Events::Rule', {
      EventPattern: {
        source: ['aws.ses'],
        'detail-type': [...SES_EVENT_DETAIL_TYPES],
        detail: { mail: { tags: { 'ses:configuration-set': ['recovery-dev-emails'] } } },
      },
      Targets: [
        Match.objectLike({
          Arn: { 'Fn::GetAtt': [logicalIdOf(email.consumer), 'Arn'] },
          RetryPolicy: { MaximumRetryAttempts: 185, MaximumEventAgeInSeconds: 86_400 },
          DeadLetterConfig: { Arn: { 'Fn::GetAtt': [logicalIdOf(email.deadLetterQueue.queue.node.defaultChild as CfnElement), 'Arn'] } },
        }),
      ],
    });
    t.hasResourceProperties('AWS::Lambda::Function', {
      Description: Match.stringLikeRegexp('SES configuration set events'),
      Environment: { Variables: Match.objectLike({ TABLE_NAME: Match.anyValue() }) },
    });
  });

  it("lets only the notifications consumer send, with ses:SendEmail on the account's identities (the service's and merchants' sending domains) and the configuration set alone", () => {
    // Prepare
    const { service, template } = synthService();
    const notifications = service.jobs.consumers.get('notifications')?.fn;
    // Act
    const t = template(service.jobs);
    const statementsOf = (roleId: string) => policyStatementsOfRole(t, roleId);
    const sesStatements = (roleId: string) => statementsOf(roleId).filter((statement) => JSON.stringify(statement.Action).includes('ses:'));
    // Assess
    const [sending, ...others] = sesStatements(roleIdOf(notifications as never));
    expect(others).toEqual([]);
    expect(sending).toMatchObject({ Effect: 'Allow', Action: 'ses:SendEmail' });
    expect(sending?.Resource).toHaveLength(2);
    expect(sending?.Resource).toEqual(
      expect.arrayContaining([
        {
          'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':ses:', { Ref: 'AWS::Region' }, ':', { Ref: 'AWS::AccountId' }, ':identity/*']],
        },
        {
          'Fn::Join': [
            '',
            ['arn:', { Ref: 'AWS::Partition' }, ':ses:', { Ref: 'AWS::Region' }, ':', { Ref: 'AWS::AccountId' }, ':configuration-set/recovery-dev-emails'],
          ],
        },
      ]),
    );
    const fn = t.findResources('AWS::Lambda::Function')[logicalIdOf(notifications as never)]?.Properties;
    expect(fn.Environment.Variables).toMatchObject({
      EMAIL_DRIVER: 'ses',
      SES_CONFIGURATION_SET: 'recovery-dev-emails',
      EMAIL_FROM: 'no-reply@dev.recovery.example.com',
      CURSOR_SIGNING_SECRET_ARN: expect.anything(),
    });
    // Unsubscribe links point at the edge API's stage URL.
    expect(JSON.stringify(fn.Environment.Variables.EDGE_PUBLIC_BASE_URL)).toContain('Recovery-dev-EdgeApi');
    for (const [name, consumer] of service.jobs.consumers) {
      if (name !== 'notifications') expect(sesStatements(roleIdOf(consumer.fn as never))).toEqual([]);
    }
    expect(sesStatements(roleIdOf(service.jobs.email.consumer as never))).toEqual([]);
  });
});

describe('SMS and WhatsApp on AWS (Twilio)', () => {
  it('keeps the local sender without a twilio context, and with one points the notifications consumer at Twilio with the auth token secret it may read', () => {
    // Prepare
    const context = JSON.parse(readFileSync(path.join(__dirname, '../../../cdk.json'), 'utf8')).context as Record<string, unknown>;
    const app = new App({
      context: {
        ...context,
        stage: 'dev',
        'aws:cdk:bundling-stacks': [],
        twilio: { accountSid: 'AC0123', authTokenSecretName: 'recovery/twilio-auth-token', smsFrom: '+15005550006', whatsappFrom: '+14155238886' },
      },
    });
    const withTwilio = createRecoveryService(app, { stage: 'dev' });
    const { service: without, template } = synthService();
    // Act
    const t = Template.fromStack(withTwilio.jobs);
    const notifications = withTwilio.jobs.consumers.get('notifications')?.fn;
    const variables = t.findResources('AWS::Lambda::Function')[logicalIdOf(notifications as never)]?.Properties.Environment.Variables;
    const plain = template(without.jobs).findResources('AWS::Lambda::Function')[logicalIdOf(without.jobs.consumers.get('notifications')?.fn as never)]
      ?.Properties.Environment.Variables;
    const secretReads = policyStatementsOfRole(t, roleIdOf(notifications as never)).filter((statement) =>
      JSON.stringify(statement.Action).includes('secretsmanager:GetSecretValue'),
    );
    // Assess
    expect(plain).not.toHaveProperty('MESSAGING_DRIVER');
    expect(variables).toMatchObject({
      MESSAGING_DRIVER: 'twilio',
      TWILIO_ACCOUNT_SID: 'AC0123',
      TWILIO_SMS_FROM: '+15005550006',
      TWILIO_WHATSAPP_FROM: '+14155238886',
    });
    expect(JSON.stringify(variables.TWILIO_AUTH_TOKEN_ARN)).toContain('secret:recovery/twilio-auth-token');
    expect(JSON.stringify(secretReads)).toContain('secret:recovery/twilio-auth-token');
  });
});

describe('compliance of the channels', () => {
  it('synthesises with the cdk-nag plugins and a twilio context', () => {
    // Prepare
    const app = new App({
      context: { 'aws:cdk:bundling-stacks': [], twilio: { accountSid: 'AC0123', authTokenSecretName: 'recovery/twilio-auth-token', smsFrom: '+15005550006' } },
    });
    createRecoveryService(app, { stage: 'dev' });
    addComplianceChecks(app);
    // Act
    const synth = () => app.synth();
    // Assess
    expect(synth).not.toThrow();
  });
});
