import { type App, type Environment, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks, ServerlessChecks } from 'cdk-nag';
import type { Construct } from 'constructs';
import { API_NAMES, type ApiName } from '#api/route-types';
import { crmAppsFor } from '#lib/config/crm-apps';
import type { StageName } from '#lib/config/stages';
import { type SessionProxySettings, sessionProxyEnvironment, WebSocketProxyApi } from '#lib/constructs/websocket-proxy-api';
import { WebSocketRelay } from '#lib/constructs/websocket-relay';
import { ApiStack } from './api-stack';
import { DataStack } from './data-stack';
import { JobsStack, type TwilioConfig } from './jobs-stack';

export interface RecoveryServiceProps {
  readonly stage: StageName;
  /** Omitted: environment-agnostic stacks (synth needs no account, region or credentials). */
  readonly env?: Environment;
}

export interface RecoveryService {
  readonly data: DataStack;
  readonly apis: Readonly<Record<ApiName, ApiStack>>;
  readonly jobs: JobsStack;
}

const pascal = (name: string): string => name.charAt(0).toUpperCase() + name.slice(1);

/** The `twilio` context value (`cdk deploy -c twilio='{"accountSid":"AC…","authTokenSecretName":"…","smsFrom":"+1…"}'`), checked. */
function twilioContext(scope: Construct): TwilioConfig | undefined {
  const raw: unknown = scope.node.tryGetContext('twilio');
  if (raw === undefined) return undefined;
  const value = typeof raw === 'string' ? (JSON.parse(raw) as unknown) : raw;
  const config = value as Partial<TwilioConfig> | null;
  if (config === null || typeof config !== 'object' || typeof config.accountSid !== 'string' || typeof config.authTokenSecretName !== 'string') {
    throw new Error('Context "twilio" needs accountSid and authTokenSecretName (and smsFrom, whatsappFrom, webhookPublicBaseUrl as needed)');
  }
  return config as TwilioConfig;
}

/**
 * All five stacks of one stage. Shared by bin/app.ts and the infra tests, so the tests check
 * exactly what `cdk synth` produces.
 */
export function createRecoveryService(scope: Construct, props: RecoveryServiceProps): RecoveryService {
  const prefix = `Recovery-${props.stage}`;
  const common = { stage: props.stage, ...(props.env ? { env: props.env } : {}) };
  const data = new DataStack(scope, `${prefix}-Data`, { ...common, description: 'Recovery service: table, queues, alarm topic' });
  const apis = {} as Record<ApiName, ApiStack>;
  // The CRMs' OAuth apps: origins per stage, clients from the `crmApps` context (lib/config/crm-apps.ts).
  const crm = { apps: crmAppsFor(props.stage, scope.node.tryGetContext('crmApps')), secrets: data.crmSecrets };
  const emailFrom = typeof scope.node.tryGetContext('emailFrom') === 'string' ? { emailFrom: scope.node.tryGetContext('emailFrom') as string } : {};
  for (const apiName of API_NAMES) {
    apis[apiName] = new ApiStack(scope, `${prefix}-${pascal(apiName)}Api`, {
      ...common,
      apiName,
      table: data.table,
      queues: data.queues,
      cursorSecret: data.cursorSecret,
      cronSecret: data.cronSecret,
      secretsKey: data.secretsKey,
      crm,
      vectorIndex: data.vectorIndex,
      exportBucket: data.exportBucket,

      ...emailFrom,
      description: `Recovery service: ${apiName} API`,
    });
  }
  // The session proxy: its identity provider and upstream from the `sessionProxy` context, on its
  // REST group and on the WebSocket API beside it in the edge stack (docs/session-proxy.md).
  const sessionProxy = scope.node.tryGetContext('sessionProxy') as SessionProxySettings | undefined;
  for (const [name, value] of Object.entries(sessionProxyEnvironment(sessionProxy))) {
    apis.edge.restApi.functionForGroup('session-proxy').function.addEnvironment(name, value);
  }
  const webSocketProxy = new WebSocketProxyApi(apis.edge, 'SessionProxyWebSocket', {
    stage: props.stage,
    table: data.table,
    secretsKey: data.secretsKey,
    ...(sessionProxy === undefined ? {} : { settings: sessionProxy }),
  });
  // The relay that holds the upstream sockets of the WebSocket API's connections (ECS Fargate; its
  // shards and their connection limit from the same context: relayShards, relayMaxConnections).
  new WebSocketRelay(apis.edge, 'SessionProxyRelay', {
    stage: props.stage,
    table: data.table,
    secretsKey: data.secretsKey,
    alarmTopic: data.alarmTopic,
    proxy: webSocketProxy,
    ...(sessionProxy === undefined ? {} : { settings: sessionProxy }),
  });
  const jobs = new JobsStack(scope, `${prefix}-Jobs`, {
    ...common,
    table: data.table,
    queues: data.queues,
    secretsKey: data.secretsKey,
    vectorIndex: data.vectorIndex,
    alarmTopic: data.alarmTopic,
    cursorSecret: data.cursorSecret,
    // Unsubscribe links point at the edge API (its stage URL, or a custom domain from the context).
    edgePublicBaseUrl: (scope.node.tryGetContext('edgePublicBaseUrl') as string | undefined) ?? apis.edge.restApi.api.url,
    ...emailFrom,
    // SMS/WhatsApp through Twilio when the context names an account (see TwilioConfig); else the local sender.
    ...(twilioContext(scope) === undefined ? {} : { twilio: twilioContext(scope) }),
    description: 'Recovery service: queue consumers and scheduled jobs',
  });
  return { data, apis, jobs };
}

/**
 * cdk-nag 3 runs as a policy-validation plugin: synth fails on any finding that is not
 * acknowledged, with its reason, on the construct it concerns (`Validations.of(x).acknowledge`).
 */
export function addComplianceChecks(app: App): void {
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }), new ServerlessChecks(app, { verbose: true }));
}
