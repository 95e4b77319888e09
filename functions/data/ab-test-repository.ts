import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { campaignBodyOf } from '#core/campaigns/types';
import { type AbTestEvaluation, type AbTestEvent, type AbTestRecord, refuseNewAbTest, TESTABLE_CAMPAIGN_STATUSES, variantOf } from '#core/experiments/ab-test';
import { computeStatistics } from '#core/experiments/decision';
import { promoteVariant, promotionTarget } from '#core/experiments/promotion';
import type { AbArm } from '#core/experiments/assign';
import { ResourceNotFoundError, StateConflictError } from '#core/errors';
import { env } from '#shared/env';
import { getCampaign } from './campaign-repository';
import { documentClient } from './client';
import type { TransactItem } from './customer-repository';
import { abTestEntity } from './entities/ab-test';
import { abTestKeys, campaignKeys, conditions } from './keys';
import { transactOptimistically } from './transact';

type Item = Record<string, unknown>;

/** The A/B test of a campaign of the merchant, or undefined (none, another merchant's campaign, not a `camp_` id). */
export async function getAbTest(merchantId: string, campaignId: string): Promise<AbTestRecord | undefined> {
  const body = campaignBodyOf(campaignId);
  if (body === undefined) return undefined;
  const answer = await documentClient.send(new GetCommand({ TableName: env.TABLE_NAME, Key: abTestKeys.test(merchantId, body), ConsistentRead: true }));
  return answer.Item === undefined ? undefined : abTestEntity.fromItem(answer.Item);
}

/**
 * Writes a new test on its campaign, in one transaction with a check that the campaign is still
 * the version read (so an archive or an edit between the read and the write is seen: the attempt
 * re-reads and decides again). The test's put is conditional on there being no test, or on the
 * one read being completed (it is replaced). Errors as refuseNewAbTest.
 */
export async function createAbTest(test: AbTestRecord): Promise<AbTestRecord> {
  const body = campaignBodyOf(test.campaign_id);
  return transactOptimistically(async () => {
    const [campaign, existing] = await Promise.all([getCampaign(test.merchant_id, test.campaign_id), getAbTest(test.merchant_id, test.campaign_id)]);
    refuseNewAbTest(test.campaign_id, campaign, existing);
    if (campaign === undefined || body === undefined) throw new ResourceNotFoundError(`No campaign ${test.campaign_id}.`, { param: 'campaign_id' });
    const put: TransactItem = {
      Put: {
        TableName: env.TABLE_NAME,
        Item: abTestEntity.toItem(test),
        ...(existing === undefined
          ? { ConditionExpression: conditions.absent }
          : {
              ConditionExpression: '#status = :completed AND #id = :existingId',
              ExpressionAttributeNames: { '#status': 'status', '#id': 'id' },
              ExpressionAttributeValues: { ':completed': 'completed', ':existingId': existing.id },
            }),
      },
    };
    const check: TransactItem = {
      ConditionCheck: {
        TableName: env.TABLE_NAME,
        Key: campaignKeys.campaign(test.merchant_id, body),
        ConditionExpression: '#version = :version',
        ExpressionAttributeNames: { '#version': 'version' },
        ExpressionAttributeValues: { ':version': campaign.version },
      },
    };
    return { items: [put, check], result: test };
  });
}

/**
 * Adds 1 to one arm's counter (`assigned` when a payment is given an arm, `sent`, `clicked`,
 * `recovered`) with one UpdateItem ADD, no read. With `testId`, only while the campaign's test is
 * still that one (a late event of a replaced test is dropped). Answers whether it was counted:
 * false when the campaign has no test (or not that one). The campaign engine (services/campaign-steps.ts), the notifications
 * consumer and delivery callbacks (services/campaign-message-events.ts) call it.
 *
 * @example await recordAbTestEvent(merchantId, campaignId, assignArm(test.id, paymentId, test.traffic_split), 'assigned', test.id)
 */
export async function recordAbTestEvent(merchantId: string, campaignId: string, variant: AbArm, event: AbTestEvent, testId?: string): Promise<boolean> {
  const body = campaignBodyOf(campaignId);
  if (body === undefined) return false;
  try {
    await documentClient.send(
      new UpdateCommand({
        TableName: env.TABLE_NAME,
        Key: abTestKeys.test(merchantId, body),
        UpdateExpression: 'ADD #counters.#arm.#event :one',
        ConditionExpression: testId === undefined ? conditions.exists : `${conditions.exists} AND #id = :id`,
        ExpressionAttributeNames: { '#counters': 'counters', '#arm': variant, '#event': event, ...(testId === undefined ? {} : { '#id': 'id' }) },
        ExpressionAttributeValues: { ':one': 1, ...(testId === undefined ? {} : { ':id': testId }) },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/** The test and its evaluation, as evaluate answers them. */
export interface EvaluatedAbTest {
  readonly test: AbTestRecord;
  readonly evaluation: AbTestEvaluation;
}

const TEST_IS_RUNNING = `${conditions.exists} AND #status = :running AND #id = :id`;

/**
 * Evaluates the campaign's running test on fresh counters (404 without one; 409 once completed)
 * and stores the evaluation. When the decision rule names a winner and the campaign can take it
 * (promotionTarget), one transaction writes the winner's template_id and subject into the
 * campaign's first email step (conditional on the campaign's version and a sending status) and
 * completes the test (conditional on it still running); a concurrent change re-runs the whole
 * evaluation. Otherwise only the evaluation is stored and the test keeps running.
 */
export async function evaluateAbTest(merchantId: string, campaignId: string, now: Date = new Date()): Promise<EvaluatedAbTest> {
  return transactOptimistically(async () => {
    const test = await getAbTest(merchantId, campaignId);
    if (test === undefined) throw new ResourceNotFoundError(`No A/B test on campaign ${campaignId}.`, { param: 'campaign_id' });
    if (test.status !== 'running') throw new StateConflictError(`The A/B test ${test.id} is completed: its winner was promoted at ${test.completed_at}.`);
    const statistics = computeStatistics(test);
    const at = now.toISOString();
    const winnerArm = statistics.winner_arm;
    const campaign = winnerArm === null ? undefined : await getCampaign(merchantId, campaignId);
    const target = campaign === undefined ? undefined : promotionTarget(campaign);
    const stepIndex = target !== undefined && 'step_index' in target ? target.step_index : null;
    const evaluation: AbTestEvaluation = {
      evaluated_at: at,
      winner: winnerArm === null ? null : variantOf(test, winnerArm).name,
      winner_arm: winnerArm,
      reason: statistics.reason,
      promoted: stepIndex !== null,
      not_promoted_reason: target !== undefined && 'refused' in target ? target.refused : null,
      step_index: stepIndex,
      statistics,
    };
    const completed = stepIndex !== null && winnerArm !== null;
    const after: AbTestRecord = completed
      ? { ...test, status: 'completed', last_evaluation: evaluation, evaluated_at: at, winner: evaluation.winner, winner_arm: winnerArm, completed_at: at }
      : { ...test, last_evaluation: evaluation, evaluated_at: at };
    const sets: Item = completed
      ? { last_evaluation: evaluation, evaluated_at: at, status: 'completed', winner: evaluation.winner, winner_arm: winnerArm, completed_at: at }
      : { last_evaluation: evaluation, evaluated_at: at };
    const items: TransactItem[] = [{ Update: updateOf(abTestEntity.key(test), sets, TEST_IS_RUNNING, { ':running': 'running', ':id': test.id }) }];
    if (completed && campaign !== undefined && winnerArm !== null && stepIndex !== null) {
      const promoted = promoteVariant(campaign, stepIndex, variantOf(test, winnerArm), now);
      const body = campaignBodyOf(campaign.id) as string;
      const statuses = Object.fromEntries(TESTABLE_CAMPAIGN_STATUSES.map((status, i) => [`:s${i}`, status]));
      items.push({
        Update: updateOf(
          campaignKeys.campaign(merchantId, body),
          { steps: promoted.steps, updated_at: promoted.updated_at, version: promoted.version },
          `${conditions.exists} AND #version = :expectedVersion AND #status IN (${Object.keys(statuses).join(', ')})`,
          { ':expectedVersion': campaign.version, ...statuses },
        ),
      });
    }
    return { items, result: { test: after, evaluation } };
  });
}

/** An UpdateItem SET of `fields` under `condition` (which may name #status, #id and #version). */
function updateOf(key: { PK: string; SK: string }, fields: Item, condition: string, values: Item) {
  const names: Record<string, string> = {};
  if (condition.includes('#status')) names['#status'] = 'status';
  if (condition.includes('#id')) names['#id'] = 'id';
  if (condition.includes('#version')) names['#version'] = 'version';
  const setValues: Item = {};
  const sets = Object.entries(fields).map(([name, value], i) => {
    names[`#f${i}`] = name;
    setValues[`:f${i}`] = value;
    return `#f${i} = :f${i}`;
  });
  return {
    TableName: env.TABLE_NAME,
    Key: key,
    UpdateExpression: `SET ${sets.join(', ')}`,
    ConditionExpression: condition,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: { ...setValues, ...values },
  };
}
