import { Duration } from 'aws-cdk-lib';

export interface FunctionSize {
  readonly memorySize: number;
  readonly timeout: Duration;
}

/** API groups that differ from GroupFunction's defaults (512 MB, 10 s). */
export const apiGroupSizes: Readonly<Record<string, FunctionSize>> = {
  // Answers from memory; a small, fast function keeps health checks cheap on all three hosts.
  health: { memorySize: 128, timeout: Duration.seconds(3) },
  // Model calls are slow; 28 s stays under API Gateway's 29 s integration limit.
  ai: { memorySize: 1024, timeout: Duration.seconds(28) },
};

/**
 * Jobs: every-minute must finish before the next run starts; hourly and daily sweep more data.
 */
export const jobSizes: Readonly<Record<string, FunctionSize>> = {
  'every-minute': { memorySize: 1024, timeout: Duration.seconds(55) },
  hourly: { memorySize: 1024, timeout: Duration.minutes(5) },
  daily: { memorySize: 1024, timeout: Duration.minutes(15) },
};

/**
 * AWS advises a queue visibility timeout of at least six times the consumer's timeout, so that
 * retries by the event source mapping cannot make a message visible while it is still in work.
 */
export const consumerTimeoutFor = (visibilityTimeoutSeconds: number): Duration =>
  Duration.seconds(Math.floor(visibilityTimeoutSeconds / 6));
