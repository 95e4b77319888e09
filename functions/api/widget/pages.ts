const escapeHtml = (value: string): string =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/** A small self-contained page (no script, nothing loaded from elsewhere), readable with any assistive technology. */
const page = (title: string, body: string): string =>
  [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
    '<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#1a1a1a;line-height:1.5}a{color:#0b57d0}</style>',
    `</head><body><main>${body}</main></body></html>`,
  ].join('');

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
