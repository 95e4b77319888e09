import { RemovalPolicy } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { version } from '../../package.json';

/** Deployment stages. Account and region come from the CLI environment, never from here. */
export const STAGES = ['dev', 'staging', 'prod'] as const;
export type StageName = (typeof STAGES)[number];

/** Reported by `GET /api/v1/status`; one version for every function of a deployment. */
export const SERVICE_VERSION: string = version;

/** Reads the `stage` context value; an unknown name fails synth rather than deploying a stray stage. */
export function parseStage(value: unknown): StageName {
  const stage = value ?? 'dev';
  if (typeof stage !== 'string' || !(STAGES as readonly string[]).includes(stage)) {
    throw new Error(`Unknown stage "${String(stage)}": expected one of ${STAGES.join(', ')}`);
  }
  return stage as StageName;
}

/** Data outlives a stack everywhere except dev, where stacks are torn down and rebuilt freely. */
export const keepsData = (stage: StageName): boolean => stage !== 'dev';

/** Removal policy for stateful resources and logs. */
export const removalPolicyFor = (stage: StageName): RemovalPolicy => (keepsData(stage) ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY);

/** Long enough to investigate an incident outside dev; short in dev, where logs are only for debugging. */
export const logRetentionFor = (stage: StageName): RetentionDays => (keepsData(stage) ? RetentionDays.THREE_MONTHS : RetentionDays.ONE_WEEK);

/**
 * Stage-wide API Gateway throttling: a ceiling that protects the table and the functions. Per-key
 * limits (DESIGN §1, 100/minute) are far lower and enforced in the handlers.
 */
export const apiThrottling = { rateLimit: 200, burstLimit: 400 } as const;
