import { BatchGetCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import type { CancelFlowRecord, CancelFlowStep } from '#core/cancel-flows';
import { ResourceNotFoundError, StateConflictError, ValidationError } from '#core/errors';
import { timeOrderedId } from '#core/ids';
import { env } from '#shared/env';
import { documentClient } from './client';
import { cancelFlowBodyOf, cancelFlowEntity, cancelFlowIdFor } from './entities/cancel-flow';
import { CANCEL_FLOW_ENTITY, cancelFlowKeys, queries } from './keys';
import { readUpTo } from './query-reads';
import { transactOptimistically } from './transact';

/**
 * Cancel flows: at most MAX_CANCEL_FLOWS per merchant (a count item written with each create and
 * delete), and the merchant's active-flow item, rewritten under a version condition in the same
 * transaction as every activation and deactivation, so that exactly one flow is active whatever
 * runs concurrently. Every change goes through transactOptimistically: read, decide, write under
 * conditions on what was read, again on fresh state when another writer got there first.
 */
export const MAX_CANCEL_FLOWS = 50;

export class CancelFlowNotFoundError extends ResourceNotFoundError {}

interface ActiveFlowItem {
  readonly flow_id: string | null;
  readonly version: number;
}

const notFound = (flowId: string) => new CancelFlowNotFoundError(`No cancel flow ${flowId}.`, { param: 'id' });

function flowKey(merchantId: string, flowId: string) {
  const body = cancelFlowBodyOf(flowId);
  if (body === undefined) throw notFound(flowId);
  return cancelFlowKeys.flow(merchantId, body);
}

export function newCancelFlowId(now: Date): string {
  return cancelFlowIdFor(timeOrderedId(now));
}

export async function getCancelFlow(merchantId: string, flowId: string): Promise<CancelFlowRecord> {
  const { Item } = await documentClient.send(new GetCommand({ TableName: env.TABLE_NAME, Key: flowKey(merchantId, flowId), ConsistentRead: true }));
  if (Item === undefined) throw notFound(flowId);
  return cancelFlowEntity.fromItem(Item);
}

async function readActive(merchantId: string): Promise<ActiveFlowItem | undefined> {
  const { Item } = await documentClient.send(new GetCommand({ TableName: env.TABLE_NAME, Key: cancelFlowKeys.active(merchantId), ConsistentRead: true }));
  return Item === undefined ? undefined : { flow_id: (Item.flow_id as string | null) ?? null, version: Item.version as number };
}

/** The merchant's active flow, if any. */
export async function getActiveCancelFlow(merchantId: string): Promise<CancelFlowRecord | undefined> {
  const active = await readActive(merchantId);
  if (active?.flow_id === null || active?.flow_id === undefined) return undefined;
  return getCancelFlow(merchantId, active.flow_id).catch((error: unknown) => {
    if (error instanceof CancelFlowNotFoundError) return undefined;
    throw error;
  });
}

/** Every flow of the merchant, oldest first (at most MAX_CANCEL_FLOWS: one Query page). */
export async function listCancelFlows(merchantId: string): Promise<CancelFlowRecord[]> {
  const items = await readUpTo(
    { TableName: env.TABLE_NAME, ConsistentRead: true, ...queries.partitionPrefix(cancelFlowKeys.flowPrefix(merchantId)) },
    MAX_CANCEL_FLOWS,
  );
  return items.map((item) => cancelFlowEntity.fromItem(item));
}

const putFlow = (flow: CancelFlowRecord, expectedVersion: number | null) => ({
  Put: {
    TableName: env.TABLE_NAME,
    Item: cancelFlowEntity.toItem(flow),
    ...(expectedVersion === null
      ? { ConditionExpression: 'attribute_not_exists(PK)' }
      : { ConditionExpression: 'version = :v', ExpressionAttributeValues: { ':v': expectedVersion } }),
  },
});

const countUpdate = (merchantId: string, delta: 1 | -1) => ({
  Update: {
    TableName: env.TABLE_NAME,
    Key: cancelFlowKeys.count(merchantId),
    UpdateExpression: 'SET entity = :entity ADD flow_count :delta',
    ...(delta === 1 ? { ConditionExpression: 'attribute_not_exists(flow_count) OR flow_count < :max' } : {}),
    ExpressionAttributeValues: { ':delta': delta, ':entity': CANCEL_FLOW_ENTITY.stats, ...(delta === 1 ? { ':max': MAX_CANCEL_FLOWS } : {}) },
  },
});

/** Stores a new flow (inactive); 422 `param: name` past MAX_CANCEL_FLOWS. */
export async function createCancelFlow(flow: CancelFlowRecord): Promise<CancelFlowRecord> {
  return transactOptimistically(async () => {
    const { Item } = await documentClient.send(
      new GetCommand({ TableName: env.TABLE_NAME, Key: cancelFlowKeys.count(flow.merchant_id), ConsistentRead: true }),
    );
    if (((Item?.flow_count as number | undefined) ?? 0) >= MAX_CANCEL_FLOWS) {
      throw new ValidationError(`A merchant has at most ${MAX_CANCEL_FLOWS} cancel flows: delete one first.`, { param: 'name' });
    }
    return { items: [countUpdate(flow.merchant_id, 1), putFlow(flow, null)], result: flow };
  });
}

/** Replaces the name and every step of a flow (active or not: running sessions keep the steps they started with); an active flow keeps at least one step (409). */
export async function replaceCancelFlow(
  merchantId: string,
  flowId: string,
  change: { readonly name?: string | undefined; readonly steps: readonly CancelFlowStep[] },
  now: Date,
): Promise<CancelFlowRecord> {
  return transactOptimistically(async () => {
    const flow = await getCancelFlow(merchantId, flowId);
    if (flow.status === 'active' && change.steps.length === 0) {
      throw new StateConflictError('An active cancel flow needs steps: deactivate it before removing them all.', { param: 'steps' });
    }
    const after: CancelFlowRecord = { ...flow, name: change.name ?? flow.name, steps: change.steps, updated_at: now.toISOString(), version: flow.version + 1 };
    return { items: [putFlow(after, flow.version)], result: after };
  });
}

/** Deletes an inactive flow; 409 while it is active. Its statistics are kept. */
export async function deleteCancelFlow(merchantId: string, flowId: string): Promise<void> {
  await transactOptimistically(async () => {
    const flow = await getCancelFlow(merchantId, flowId);
    if (flow.status === 'active') throw new StateConflictError('An active cancel flow cannot be deleted: deactivate it first.', { param: 'id' });
    return {
      items: [
        {
          Delete: {
            TableName: env.TABLE_NAME,
            Key: flowKey(merchantId, flowId),
            ConditionExpression: 'version = :v',
            ExpressionAttributeValues: { ':v': flow.version },
          },
        },
        countUpdate(merchantId, -1),
      ],
      result: undefined,
    };
  });
}

const putActive = (merchantId: string, flowId: string | null, read: ActiveFlowItem | undefined) => ({
  Put: {
    TableName: env.TABLE_NAME,
    Item: { ...cancelFlowKeys.active(merchantId), entity: CANCEL_FLOW_ENTITY.active, flow_id: flowId, version: (read?.version ?? 0) + 1 },
    ...(read === undefined
      ? { ConditionExpression: 'attribute_not_exists(PK)' }
      : { ConditionExpression: 'version = :v', ExpressionAttributeValues: { ':v': read.version } }),
  },
});

/**
 * inactive → active, and the flow active before (if any) → inactive, in one transaction with the
 * active-flow item: two concurrent activations cannot both win, the second one runs again on the
 * first's result and deactivates it. A flow without steps cannot be activated (409); an active
 * one neither (409, as a second activation of a campaign).
 */
export async function activateCancelFlow(merchantId: string, flowId: string, now: Date): Promise<CancelFlowRecord> {
  return transactOptimistically(async () => {
    const [flow, active] = await Promise.all([getCancelFlow(merchantId, flowId), readActive(merchantId)]);
    if (flow.status === 'active') throw new StateConflictError('This cancel flow is already active.', { param: 'id' });
    if (flow.steps.length === 0) throw new StateConflictError('A cancel flow without steps cannot be activated: add steps first.', { param: 'id' });
    const at = now.toISOString();
    const after: CancelFlowRecord = { ...flow, status: 'active', activated_at: at, updated_at: at, version: flow.version + 1 };
    const items = [putActive(merchantId, flowId, active), putFlow(after, flow.version)];
    if (active?.flow_id !== null && active?.flow_id !== undefined && active.flow_id !== flowId) {
      const previous = await getCancelFlow(merchantId, active.flow_id).catch(() => undefined);
      if (previous !== undefined && previous.status === 'active') {
        items.push(putFlow({ ...previous, status: 'inactive', deactivated_at: at, updated_at: at, version: previous.version + 1 }, previous.version));
      }
    }
    return { items, result: after };
  });
}

/** active → inactive (the merchant then has no active flow: starting a session is 409). An inactive flow: 409. */
export async function deactivateCancelFlow(merchantId: string, flowId: string, now: Date): Promise<CancelFlowRecord> {
  return transactOptimistically(async () => {
    const [flow, active] = await Promise.all([getCancelFlow(merchantId, flowId), readActive(merchantId)]);
    if (flow.status !== 'active') throw new StateConflictError('This cancel flow is not active.', { param: 'id' });
    const at = now.toISOString();
    const after: CancelFlowRecord = { ...flow, status: 'inactive', deactivated_at: at, updated_at: at, version: flow.version + 1 };
    const items = [putFlow(after, flow.version), ...(active?.flow_id === flowId ? [putActive(merchantId, null, active)] : [])];
    return { items, result: after };
  });
}

/** The statistics counter items of these flows (written by the stream consumer), by flow id; absent before any session. */
export async function cancelFlowCounters(merchantId: string, flowIds: readonly string[]): Promise<Map<string, Record<string, number>>> {
  const counters = new Map<string, Record<string, number>>();
  const bodies = flowIds.map((id) => [id, cancelFlowBodyOf(id) as string] as const);
  for (let start = 0; start < bodies.length; start += 100) {
    let pending: Record<string, unknown>[] = bodies.slice(start, start + 100).map(([, body]) => ({ ...cancelFlowKeys.stats(merchantId, body) }));
    while (pending.length > 0) {
      const answer = await documentClient.send(new BatchGetCommand({ RequestItems: { [env.TABLE_NAME]: { Keys: pending } } }));
      for (const item of answer.Responses?.[env.TABLE_NAME] ?? []) {
        const body = cancelFlowKeys.statsBodyOf(String(item.SK));
        const numbers: Record<string, number> = {};
        for (const [name, value] of Object.entries(item)) if (typeof value === 'number') numbers[name] = value;
        counters.set(cancelFlowIdFor(body), numbers);
      }
      pending = (answer.UnprocessedKeys?.[env.TABLE_NAME]?.Keys ?? []) as Record<string, unknown>[];
    }
  }
  return counters;
}
