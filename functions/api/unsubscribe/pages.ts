import { hostedPage as page } from '#api/hosted-page';

/** The confirmation page: one button that posts the RFC 8058 body to the same URL (no script). */
export const confirmationPage = (token: string): string =>
  page(
    'Unsubscribe',
    [
      '<h1>Unsubscribe</h1>',
      '<p>Stop receiving payment reminders by email, SMS and WhatsApp?</p>',
      `<form method="post" action="/unsubscribe/${encodeURIComponent(token)}">`,
      '<input type="hidden" name="List-Unsubscribe" value="One-Click">',
      '<button type="submit">Unsubscribe</button>',
      '</form>',
    ].join(''),
  );

export const unsubscribedPage = (): string =>
  page('Unsubscribed', '<h1>You are unsubscribed</h1><p>You will not receive any more payment reminders from this sender.</p>');
