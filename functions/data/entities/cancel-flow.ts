import type { CancelFlowRecord } from '#core/cancel-flows';
import type { CancelSessionRecord } from '#core/cancel-sessions';
import { idBody } from '#core/ids';
import { CANCEL_FLOW_ENTITY, cancelFlowKeys } from '../keys';
import { defineEntity } from './define-entity';

/** `cf_<body>`: the id of the cancel flow stored under that body. */
export const cancelFlowIdFor = (body: string): string => `cf_${body}`;
export const cancelFlowBodyOf = (id: string): string | undefined => idBody(id, 'cf');

/** `cs_<body>`: a cancel session's id (its token is the credential; the id names it in events and logs). */
export const cancelSessionIdFor = (body: string): string => `cs_${body}`;

/** A merchant's cancel flow, its steps inline (at most 10). Not about a customer: no GSI2 tag. */
export const cancelFlowEntity = defineEntity<CancelFlowRecord>({
  name: CANCEL_FLOW_ENTITY.flow,
  key: (flow) => cancelFlowKeys.flow(flow.merchant_id, cancelFlowBodyOf(flow.id) as string),
});

/**
 * A cancel session, keyed by its token's hash; filed among the customer's data (GSI2), and in the
 * due index of the day its save window closes while it waits for the 30-day re-check.
 */
export const cancelSessionEntity = defineEntity<CancelSessionRecord, { readonly tokenHash: string; readonly dueOn: string | null }>({
  name: CANCEL_FLOW_ENTITY.session,
  key: (_session, place) => cancelFlowKeys.session(place.tokenHash),
  indexes: (session, place) => ({
    ...cancelFlowKeys.sessionTag(session.merchant_id, session.customer_id, session.created_at, session.id),
    ...(place.dueOn === null ? {} : cancelFlowKeys.dueIndex(place.dueOn, session.merchant_id, session.id)),
  }),
});
