import { type RouteDef, at } from '#api/route-rows';

/** The `widget` group's rows of the route table: its Lambda serves exactly these. */
export const widgetRoutes: readonly RouteDef[] = [
  at('edge', 'widget', 'POST', '/api/widget/init', 'initWidget', 'widget_hmac', [], 'Initialise the recovery widget'),
  at('edge', 'widget', 'GET', '/api/widget/branding/{merchant_id}', 'getWidgetBranding', 'public', [], 'Widget branding'),
];
