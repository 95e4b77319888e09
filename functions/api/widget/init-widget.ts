import { defineOperation } from '#api/operation';
import { widgetCorsHeaders } from '#api/pipeline/widget-hmac';
import { widgetInit } from '#services/widget';
import { initWidgetSchemas } from './schemas';

/**
 * POST /api/widget/init: what the widget shows the customer its merchant's server signed for (the
 * pipeline verified the signature, its freshness and that it is new). A's unwrapped body, readable
 * from any origin (pipeline/widget-hmac.ts), never cached.
 */
export const initWidget = defineOperation({ auth: 'widget_hmac', schemas: initWidgetSchemas }, async ({ principal, event }) => ({
  body: await widgetInit(principal.merchantId, principal.customerId),
  headers: { 'Cache-Control': 'no-store', ...widgetCorsHeaders(event) },
}));
