import { Duration } from 'aws-cdk-lib';

export interface FunctionSize {
  readonly memorySize: number;
  readonly timeout: Duration;
}

/**
 * AWS advises a queue visibility timeout of at least six times the consumer's timeout, so that
 * retries by the event source mapping cannot make a message visible while it is still in work.
 */
export const consumerTimeoutFor = (visibilityTimeoutSeconds: number): Duration => Duration.seconds(Math.floor(visibilityTimeoutSeconds / 6));
