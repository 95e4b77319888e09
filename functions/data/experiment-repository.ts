import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { AbTestRecord } from '#core/experiments/ab-test';
import {
  EXPERIMENT_KINDS,
  type ExperimentKind,
  type ExperimentRecord,
  type ExperimentStatus,
  type ExperimentVariant,
  experimentBodyOf,
  variantFor,
} from '#core/experiments/experiment';
import type { VariantCounts } from '#core/experiments/results';
import { env } from '#shared/env';
import { documentClient } from './client';
import { abTestEntity } from './entities/ab-test';
import { type ExperimentAssignment, experimentAssignmentEntity, experimentEntity } from './entities/experiment';
import { conditions, experimentKeys, queries } from './keys';

type Item = Record<string, unknown>;

/** Every item of a partition under a sort-key prefix, all pages (the lists here are a merchant's handful). */
export async function queryAll(prefix: { PK: string; SKPrefix: string }, consistent = true): Promise<Item[]> {
  const items: Item[] = [];
  let startKey: Item | undefined;
  do {
    const page = await documentClient.send(
      new QueryCommand({
        TableName: env.TABLE_NAME,
        ...queries.partitionPrefix(prefix),
        ConsistentRead: consistent,
        ...(startKey === undefined ? {} : { ExclusiveStartKey: startKey }),
      }),
    );
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey !== undefined);
  return items;
}

/** The merchant's experiment, or undefined (none, another merchant's, not an `xp_` id). */
export async function getExperiment(merchantId: string, id: string): Promise<ExperimentRecord | undefined> {
  const body = experimentBodyOf(id);
  if (body === undefined) return undefined;
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: env.TABLE_NAME, Key: experimentKeys.experiment(merchantId, body), ConsistentRead: true }),
  );
  return Item === undefined ? undefined : experimentEntity.fromItem(Item);
}

/** Every experiment of the merchant, oldest first (one Query; a merchant runs a handful). */
export async function listExperiments(merchantId: string): Promise<ExperimentRecord[]> {
  return (await queryAll(experimentKeys.experimentPrefix(merchantId))).map((item) => experimentEntity.fromItem(item));
}

/** The merchant's email A/B tests (campaigns issue), listed among the experiments. */
export async function listAbTests(merchantId: string): Promise<AbTestRecord[]> {
  return (await queryAll(experimentKeys.abTestPrefix(merchantId))).map((item) => abTestEntity.fromItem(item));
}

/** The put of a new experiment, for a transaction (with the suggestion it applies) or alone. */
export const experimentPut = (experiment: ExperimentRecord) => ({
  Put: { TableName: env.TABLE_NAME, Item: experimentEntity.toItem(experiment), ConditionExpression: conditions.absent },
});

export async function putExperiment(experiment: ExperimentRecord): Promise<ExperimentRecord> {
  await documentClient.send(new PutCommand(experimentPut(experiment).Put));
  return experiment;
}

/**
 * The write that moves a running experiment to `status` (stopped, or promoted with its winner),
 * conditional on it still running, for a transaction (with the default a promotion sets).
 */
export function experimentEndUpdate(experiment: ExperimentRecord, status: Exclude<ExperimentStatus, 'running'>, winner: string | null, now: Date) {
  return {
    Update: {
      TableName: env.TABLE_NAME,
      Key: experimentKeys.experiment(experiment.merchant_id, experimentBodyOf(experiment.id) as string),
      UpdateExpression: `SET #status = :status, winner = :winner, ${status === 'stopped' ? 'stopped_at' : 'promoted_at'} = :at`,
      ConditionExpression: `${conditions.exists} AND #status = :running`,
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':status': status, ':winner': winner, ':at': now.toISOString(), ':running': 'running' },
    },
  };
}

/**
 * The customer's variant in a running experiment, recorded once (the exposure: the stream counts
 * it into the variant's counters): a conditional put, so a second call, concurrent or later,
 * keeps the first assignment and counts nothing twice.
 */
export async function assignCustomer(experiment: ExperimentRecord, customerId: string, now: Date): Promise<ExperimentVariant> {
  const variant = variantFor(experiment, customerId);
  if (experiment.status !== 'running') return variant;
  const assignment: ExperimentAssignment = {
    merchant_id: experiment.merchant_id,
    experiment_id: experiment.id,
    customer_id: customerId,
    variant: variant.key,
    converted: false,
    assigned_at: now.toISOString(),
    converted_at: null,
  };
  try {
    await documentClient.send(
      new PutCommand({ TableName: env.TABLE_NAME, Item: experimentAssignmentEntity.toItem(assignment), ConditionExpression: conditions.absent }),
    );
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
  return variant;
}

/**
 * A conversion: each running experiment of `kinds` the customer was assigned in counts them
 * converted, once (conditional on an assignment that has not converted yet). Returns the
 * experiments it counted in.
 */
export async function recordConversions(
  merchantId: string,
  customerId: string,
  now: Date,
  kinds: readonly ExperimentKind[] = EXPERIMENT_KINDS,
): Promise<string[]> {
  const running = (await listExperiments(merchantId)).filter((experiment) => experiment.status === 'running' && kinds.includes(experiment.kind));
  const counted: string[] = [];
  for (const experiment of running) {
    try {
      await documentClient.send(
        new UpdateCommand({
          TableName: env.TABLE_NAME,
          Key: experimentKeys.assignment(merchantId, experimentBodyOf(experiment.id) as string, customerId),
          UpdateExpression: 'SET converted = :true, converted_at = :at',
          ConditionExpression: `${conditions.exists} AND converted = :false`,
          ExpressionAttributeValues: { ':true': true, ':false': false, ':at': now.toISOString() },
        }),
      );
      counted.push(experiment.id);
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }
  return counted;
}

/**
 * The variants' counters (written by the stream consumer, projections/experiment-counters.ts): one
 * Query of at most as many items as there are variants, whatever the number of assignments.
 */
export async function readVariantCounts(experiment: ExperimentRecord): Promise<Record<string, VariantCounts>> {
  const items = await queryAll(experimentKeys.variantCountersPrefix(experiment.merchant_id, experimentBodyOf(experiment.id) as string), false);
  const counts: Record<string, VariantCounts> = {};
  for (const item of items) {
    if (typeof item.variant !== 'string') continue;
    counts[item.variant] = { exposures: Number(item.exposures ?? 0), conversions: Number(item.conversions ?? 0) };
  }
  return counts;
}
