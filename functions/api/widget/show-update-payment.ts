import { defineOperation } from '#api/operation';
import { followUpdatePaymentLink } from '#services/update-payment';
import { linkNotFoundPage, redirectPage, unavailablePage } from './pages';
import { showUpdatePaymentSchemas } from './schemas';

/**
 * GET /update-payment/{token}: the `update_payment_url` of dunning messages and of the widget.
 * Records the click and sends the customer on (303) to the payment provider's hosted
 * payment-method page the merchant configured; the token never reaches the provider
 * (`Referrer-Policy: no-referrer`). An unknown or expired link is a small HTML page (404).
 */
export const showUpdatePayment = defineOperation({ auth: 'public', schemas: showUpdatePaymentSchemas }, async ({ params }) => {
  const result = await followUpdatePaymentLink(params.token);
  if (result.outcome === 'unknown') return { statusCode: 404, body: undefined, html: linkNotFoundPage() };
  if (result.outcome === 'unconfigured') return { statusCode: 503, body: undefined, html: unavailablePage() };
  return { statusCode: 303, body: undefined, html: redirectPage(result.location), headers: { Location: result.location } };
});
