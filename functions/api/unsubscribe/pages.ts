const escapeHtml = (value: string): string =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

const page = (title: string, body: string): string =>
  [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
    '<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#222}button{font-size:1rem;padding:.6rem 1.2rem;cursor:pointer}</style>',
    `</head><body>${body}</body></html>`,
  ].join('');

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
