import { escapeHtml, hostedPage as page } from '#api/hosted-page';

/** Answered with the 303, for clients that do not follow redirects. */
export const redirectPage = (location: string): string =>
  page('Update your payment method', `<h1>Update your payment method</h1><p><a href="${escapeHtml(location)}">Continue to the secure payment page</a>.</p>`);

/** An unknown or expired link (404). */
export const linkNotFoundPage = (): string =>
  page(
    'Link expired or not valid',
    '<h1>This link has expired or is not valid</h1><p>Links to update a payment method work for 30 days. Use the link in the most recent message you received, or contact the company that sent it.</p>',
  );

/** A merchant that has not configured where payment methods are updated (503). */
export const unavailablePage = (): string =>
  page(
    'Payment update unavailable',
    '<h1>Payment update is not available right now</h1><p>Please try again later, or contact the company that sent you this link.</p>',
  );
