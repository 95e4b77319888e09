import { createGroupHandler } from '#api/group-handler';
import { widgetHmacAuth } from '#api/pipeline/widget-hmac';
import { publicAuth } from '#api/pipeline/authenticator';
import { getWidgetBranding } from './get-widget-branding';
import { getWidgetScript } from './get-widget-script';
import { initWidget } from './init-widget';
import { widgetRoutes } from './routes';
import { showUpdatePayment } from './show-update-payment';

/** The widget Lambda (edge API): the signed widget init, the widget script, branding and the update-payment page. */
export const handler = createGroupHandler(
  widgetRoutes,
  { initWidget, getWidgetBranding, getWidgetScript, showUpdatePayment },
  { ...widgetHmacAuth, ...publicAuth },
);
