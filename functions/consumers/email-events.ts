import type { EventBridgeEvent } from 'aws-lambda';
import type { DeliveryEvent } from '#core/messages';
import { applyDeliveryCallback, type DeliveryCallback } from '#services/delivery-callback';
import { logger } from '#shared/logger';

/** An SES event-publishing record (the EventBridge event's `detail`), reduced to what we read. */
export interface SesEventDetail {
  readonly eventType: string;
  readonly mail: { readonly messageId: string; readonly timestamp?: string };
  readonly bounce?: { readonly bounceType?: string; readonly bounceSubType?: string; readonly timestamp?: string };
  readonly complaint?: { readonly timestamp?: string; readonly complaintFeedbackType?: string };
  readonly delivery?: { readonly timestamp?: string };
  readonly open?: { readonly timestamp?: string };
  readonly click?: { readonly timestamp?: string; readonly link?: string };
  readonly reject?: { readonly reason?: string };
}

/**
 * An SES event as a delivery callback (the same path the webhook callbacks take): Delivery →
 * delivered, Open → opened, Click → clicked, a Permanent bounce → bounced and the address
 * suppressed (`hard_bounce`), a Transient bounce → deferred (SES retries; nothing moves), a
 * Complaint → complained and suppressed (`complaint`), Reject (SES refused to send it) → bounced,
 * without suppression. The event id is EventBridge's, so a redelivered event is a duplicate.
 * Undefined for any other event type.
 */
export function callbackOfSesEvent(eventId: string, detail: SesEventDetail, receivedAt: string): DeliveryCallback | undefined {
  const at = (value: string | undefined): string => (value !== undefined && !Number.isNaN(Date.parse(value)) ? new Date(value).toISOString() : receivedAt);
  const event = (type: DeliveryEvent['type'], occurredAt: string | undefined, detailText: string | null): DeliveryEvent => ({
    id: eventId,
    type,
    source: 'ses',
    occurred_at: at(occurredAt),
    received_at: receivedAt,
    detail: detailText,
  });
  const base = { source: 'ses' as const, providerMessageId: detail.mail.messageId };
  switch (detail.eventType) {
    case 'Delivery':
      return { ...base, event: event('delivered', detail.delivery?.timestamp, null) };
    case 'Open':
      return { ...base, event: event('opened', detail.open?.timestamp, null) };
    case 'Click':
      return { ...base, event: event('clicked', detail.click?.timestamp, null) };
    case 'Bounce': {
      const what = `${detail.bounce?.bounceType ?? 'Undetermined'}/${detail.bounce?.bounceSubType ?? 'Undetermined'}`;
      if (detail.bounce?.bounceType === 'Permanent') return { ...base, event: event('bounced', detail.bounce.timestamp, what), suppress: 'hard_bounce' };
      return { ...base, event: event('deferred', detail.bounce?.timestamp, what) };
    }
    case 'Complaint':
      return { ...base, event: event('complained', detail.complaint?.timestamp, detail.complaint?.complaintFeedbackType ?? null), suppress: 'complaint' };
    case 'Reject':
      return { ...base, event: event('bounced', detail.mail.timestamp, `Rejected: ${detail.reject?.reason ?? 'unknown'}`) };
    default:
      return undefined;
  }
}

/**
 * The target of the EventBridge rule on the SES configuration set's events (lib/constructs/email-sending.ts):
 * applies each as a delivery callback (message delivery status, suppression, bounce and complaint
 * counts for the automatic pause). A failure throws, so EventBridge retries, then dead-letters.
 */
export async function handler(event: EventBridgeEvent<string, SesEventDetail>): Promise<void> {
  const log = logger.child({ source: 'ses', event_id: event.id });
  const callback = callbackOfSesEvent(event.id, event.detail, new Date().toISOString());
  if (callback === undefined) {
    log.info('SES event not acted on', { event_type: event.detail?.eventType });
    return;
  }
  await applyDeliveryCallback(callback, log);
}
