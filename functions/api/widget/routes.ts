import { type RouteDef, at } from '#api/route-rows';
import { brandingSchemas, initWidgetSchemas, showUpdatePaymentSchemas, widgetScriptSchemas } from './schemas';

/** The `widget` group's rows of the route table (edge host): the widget, its script, branding and the update-payment page. */
export const widgetRoutes: readonly RouteDef[] = [
  at('edge', 'widget', 'POST', '/api/widget/init', 'initWidget', 'widget_hmac', [], 'Initialise the recovery widget', initWidgetSchemas),
  at('edge', 'widget', 'GET', '/api/widget/branding/{merchant_id}', 'getWidgetBranding', 'public', [], 'Widget branding', brandingSchemas),
  at('edge', 'widget', 'GET', '/widget.js', 'getWidgetScript', 'public', [], 'The embeddable recovery widget (JavaScript)', widgetScriptSchemas),
  at(
    'edge',
    'widget',
    'GET',
    '/update-payment/{token}',
    'showUpdatePayment',
    'public',
    [],
    'Update-payment link: records the click, redirects to the provider page',
    showUpdatePaymentSchemas,
  ),
];
