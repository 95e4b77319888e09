import { defineOperation } from '#api/operation';
import { headerOf } from '#api/pipeline/headers';
import { widgetInit } from '#services/widget';
import { initWidgetSchemas } from './schemas';

/**
 * POST /api/widget/init: what the widget shows the customer its merchant's server signed for (the
 * pipeline verified the signature, its freshness and that it is new). A's unwrapped body. Any
 * origin may read it (the signature, not the page's origin, is the credential; no cookies are
 * involved), so the merchant's pages on any of their domains can embed the widget.
 */
export const initWidget = defineOperation({ auth: 'widget_hmac', schemas: initWidgetSchemas }, async ({ principal, event }) => {
  const origin = headerOf(event, 'origin');
  return {
    body: await widgetInit(principal.merchantId, principal.customerId),
    headers: {
      'Cache-Control': 'no-store',
      Vary: 'Origin',
      ...(origin === undefined ? {} : { 'Access-Control-Allow-Origin': origin }),
    },
  };
});
