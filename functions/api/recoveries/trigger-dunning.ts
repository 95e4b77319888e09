import { queueSender } from '../../adapters/queue-sender';
import { dunningRefusal } from '../../core/dunning';
import { ResourceNotFoundError, StateConflictError } from '../../core/errors';
import { closeMessage, createDunningMessage } from '../../data/message-repository';
import { getPayment } from '../../data/payment-repository';
import type { DunningEmailMessage } from '../../consumers/dunning-email';
import { envelope } from '../../shared/http/responses';
import { defineOperation } from '../operation';
import { dunningTriggeredView } from '../views';
import { triggerDunningSchemas } from './schemas';

/**
 * POST /api/v1/recoveries/{id}/dunning: sends a dunning email now, outside any campaign
 * schedule. Records the message (`queued`) in the communication log, then enqueues it on
 * `notifications`, whose consumer sends it once; answers 202 with A's acknowledgement and B's
 * `sent` (true: queued) and `message_id` in one body. 404 for an unknown recovery; 409 when it is
 * recovered, terminal or paused (no dunning until resumed). If the enqueue fails, the message is
 * marked `failed` and the request answers 500, which is not kept under an Idempotency-Key, so
 * the client can retry.
 */
export const triggerDunning = defineOperation(triggerDunningSchemas, async ({ params, body, caller, requestId }) => {
  const merchantId = caller?.merchantId as string;
  const payment = await getPayment(merchantId, params.id);
  if (payment === undefined) throw new ResourceNotFoundError(`No recovery ${params.id}.`, { param: 'id' });
  const refusal = dunningRefusal(payment.status);
  if (refusal !== undefined) throw new StateConflictError(`Cannot send a dunning email for recovery ${payment.recovery_id}: ${refusal}.`);

  const message = await createDunningMessage(payment, { templateId: body.template_id ?? null, subject: body.subject ?? null });
  const queued: DunningEmailMessage = { kind: 'dunning_email', merchant_id: merchantId, message_id: message.id };
  try {
    await queueSender.send('notifications', queued);
  } catch (error) {
    await closeMessage(message, 'failed', 'Could not be queued for sending', new Date()).catch(() => undefined);
    throw error;
  }
  return { statusCode: 202, body: envelope(dunningTriggeredView(payment, message), requestId, merchantId) };
});
