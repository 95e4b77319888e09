import { escapeHtml } from '#core/templates/render';

export { escapeHtml };

/**
 * A small self-contained page of the edge host (unsubscribe, update-payment): no script, nothing
 * loaded from elsewhere (the pages' CSP allows only inline style), English, readable with any
 * assistive technology. `body` is trusted HTML; escape what it interpolates.
 */
export const hostedPage = (title: string, body: string): string =>
  [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
    '<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#222;line-height:1.5}a{color:#0b57d0}button{font-size:1rem;padding:.6rem 1.2rem;cursor:pointer}</style>',
    `</head><body><main>${body}</main></body></html>`,
  ].join('');
