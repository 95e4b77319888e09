import type { CancelFlowOffer, CancelFlowStep } from '#core/cancel-flows';
import type { CancelSessionRecord, SessionOutcome } from '#core/cancel-sessions';
import { accessibleBrandColor } from '#core/contrast';

/**
 * The hosted cancel page (GET /cancel/{token}): server-rendered HTML of the session's current
 * step, and a small inline script (allowed by a per-response nonce, nothing else may run) that
 * posts the answer to the session API and reloads the page, which then shows the next step. No
 * third-party asset; every control is a native button or radio with a label, in reading order;
 * the heading takes focus after each step so screen readers announce it; the merchant's colour
 * is darkened until white text on it reaches 4.5:1.
 */
const escapeHtml = (value: string): string =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

export interface PageBranding {
  readonly merchantName: string;
  readonly primaryColor: string | null;
}

/** How an offer reads to the customer. */
export function offerText(offer: Pick<CancelFlowOffer, 'type' | 'value' | 'duration_months'>): string {
  switch (offer.type) {
    case 'discount': {
      const months = offer.duration_months;
      return `${offer.value}% off ${months === null ? 'your next invoice' : `for ${months} month${months === 1 ? '' : 's'}`}`;
    }
    case 'pause':
      return `Pause your subscription for ${offer.value} month${offer.value === 1 ? '' : 's'}`;
    case 'downgrade':
      return `Switch to ${offer.value}`;
    case 'custom':
      return String(offer.value);
  }
}

const DONE: Readonly<Record<SessionOutcome, { title: string; body: string }>> = {
  cancelled: { title: 'Your cancellation is confirmed', body: 'Your subscription will not renew. We are sorry to see you go.' },
  saved_discount: { title: 'Your discount is on its way', body: 'Thank you for staying. The discount applies to your next invoices.' },
  saved_pause: { title: 'Your subscription will be paused', body: 'Thank you for staying. Billing resumes when the pause ends.' },
  saved_other: { title: 'Your subscription continues', body: 'Thank you for staying with us.' },
  abandoned: { title: 'Nothing was changed', body: 'Your subscription continues as before.' },
};

function stepMarkup(step: CancelFlowStep): string {
  const title = `<h1 id="title" tabindex="-1">${escapeHtml(step.title)}</h1>`;
  const body = step.body === null ? '' : `<p>${escapeHtml(step.body)}</p>`;
  switch (step.step_type) {
    case 'survey': {
      const options = step.options
        .map(
          (option, index) =>
            `<div class="option"><input type="radio" id="reason-${index}" name="selected_reason" value="${escapeHtml(option.value)}" required><label for="reason-${index}">${escapeHtml(option.label)}</label></div>`,
        )
        .join('');
      return `${title}${body}<form id="step" data-kind="survey"><fieldset><legend>Choose the reason that fits best</legend>${options}</fieldset><button type="submit" class="primary">${escapeHtml(step.button_label ?? 'Continue')}</button></form>`;
    }
    case 'offer':
      return `${title}${body}<form id="step" data-kind="offer"><p class="offer">${escapeHtml(step.offer === null ? '' : offerText(step.offer))}</p><div class="actions"><button type="submit" class="primary" value="accept">${escapeHtml(step.button_label ?? 'Accept offer')}</button><button type="submit" class="secondary" value="decline">No thanks, continue to cancel</button></div></form>`;
    case 'confirm':
      return `${title}${body}${confirmForm(step.button_label ?? 'Cancel my subscription')}`;
    case 'custom':
      return `${title}${body}<form id="step" data-kind="next"><button type="submit" class="primary">${escapeHtml(step.button_label ?? 'Continue')}</button></form>`;
  }
}

const confirmForm = (label: string): string =>
  `<form id="step" data-kind="complete"><div class="actions"><button type="submit" class="primary" value="cancelled">${escapeHtml(label)}</button><button type="submit" class="secondary" value="saved_other">Keep my subscription</button></div></form>`;

function mainMarkup(session: CancelSessionRecord): string {
  if (session.state === 'completed' && session.outcome !== null) {
    const done = DONE[session.outcome];
    return `<h1 id="title" tabindex="-1">${escapeHtml(done.title)}</h1><p>${escapeHtml(done.body)}</p>`;
  }
  const index = session.steps.findIndex((step) => step.id === session.current_step);
  const step = session.steps[index];
  if (step === undefined) {
    return `<h1 id="title" tabindex="-1">Confirm your cancellation</h1><p>Your subscription will not renew.</p>${confirmForm('Cancel my subscription')}`;
  }
  return `<p class="progress">Step ${index + 1} of ${session.steps.length}</p>${stepMarkup(step)}`;
}

/** The page's script: answers the step through the session API, then reloads to show the next one. */
const SCRIPT = `(() => {
  const form = document.getElementById('step');
  const status = document.getElementById('status');
  if (sessionStorage.getItem('cancel-flow-moved') === '1') {
    sessionStorage.removeItem('cancel-flow-moved');
    document.getElementById('title')?.focus();
  }
  if (!form) return;
  const api = '/api/cancel-session/' + encodeURIComponent(document.body.dataset.token);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const button = event.submitter;
    const kind = form.dataset.kind;
    let path = '/advance';
    let body = {};
    if (kind === 'survey') body = { selected_reason: new FormData(form).get('selected_reason') };
    if (kind === 'offer') body = { response: { accepted: button && button.value === 'accept' } };
    if (kind === 'complete') { path = '/complete'; body = { outcome: button ? button.value : 'cancelled' }; }
    for (const control of form.querySelectorAll('button')) control.disabled = true;
    status.textContent = 'Saving…';
    try {
      const response = await fetch(api + path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
      if (response.ok || response.status === 409) {
        sessionStorage.setItem('cancel-flow-moved', '1');
        location.reload();
        return;
      }
      const answer = await response.json().catch(() => ({}));
      status.textContent = (answer.error && answer.error.message) || 'Something went wrong. Please try again.';
    } catch {
      status.textContent = 'The connection failed. Please try again.';
    }
    for (const control of form.querySelectorAll('button')) control.disabled = false;
  });
})();`;

function htmlDocument(title: string, main: string, branding: PageBranding, nonce: string, token: string): string {
  const brand = accessibleBrandColor(branding.primaryColor);
  const style = [
    `:root{--brand:${brand}}`,
    '*{box-sizing:border-box}',
    'body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1f2937;background:#f9fafb;line-height:1.5}',
    'header{background:#fff;border-bottom:1px solid #d1d5db;padding:1rem}',
    'header p{margin:0;font-weight:600;max-width:36rem;margin:auto}',
    'main{max-width:36rem;margin:2rem auto;padding:1.5rem;background:#fff;border:1px solid #d1d5db;border-radius:.5rem}',
    'h1{font-size:1.5rem;margin:.25rem 0 1rem}',
    '.progress{color:#4b5563;margin:0;font-size:.9rem}',
    'fieldset{border:0;padding:0;margin:0 0 1rem}legend{font-weight:600;margin-bottom:.5rem}',
    '.option{display:flex;gap:.5rem;align-items:center;padding:.4rem 0}.option input{width:1.2rem;height:1.2rem;accent-color:var(--brand)}',
    '.offer{font-size:1.25rem;font-weight:700;color:var(--brand)}',
    '.actions{display:flex;flex-wrap:wrap;gap:.75rem}',
    'button{font:inherit;font-weight:600;padding:.7rem 1.2rem;border-radius:.4rem;cursor:pointer;min-height:44px}',
    '.primary{background:var(--brand);color:#fff;border:2px solid var(--brand)}',
    '.secondary{background:#fff;color:var(--brand);border:2px solid var(--brand)}',
    'button:disabled{opacity:.7;cursor:wait}',
    ':focus-visible{outline:3px solid #111827;outline-offset:3px;box-shadow:0 0 0 6px #fff}',
    // The heading takes focus only so that a screen reader announces the new step; it is not a control.
    '[tabindex="-1"]:focus{outline:none;box-shadow:none}',
    '#status{min-height:1.5rem;color:#991b1b}',
  ].join('');
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)} · ${escapeHtml(branding.merchantName)}</title>`,
    `<style nonce="${nonce}">${style}</style>`,
    `</head><body data-token="${escapeHtml(token)}"><header><p>${escapeHtml(branding.merchantName)}</p></header>`,
    `<main>${main}<noscript><p>This page needs JavaScript to send your answers. Please turn it on, or contact us to cancel.</p></noscript><p id="status" role="status" aria-live="polite"></p></main>`,
    `<script nonce="${nonce}">${SCRIPT}</script>`,
    '</body></html>',
  ].join('');
}

/** The Content-Security-Policy of a page: only its own nonce'd style and script, requests to its own origin. */
export const pagePolicy = (nonce: string): string =>
  `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

export function cancelPage(session: CancelSessionRecord, token: string, branding: PageBranding, nonce: string): string {
  return htmlDocument('Cancel your subscription', mainMarkup(session), branding, nonce, token);
}

/** The page's branding when no session (so no merchant) is known. */
const NO_BRANDING: PageBranding = { merchantName: 'Subscription', primaryColor: null };

/** The 404 page: a well-formed token that opens no session, or whose 24 hours are over. */
export function missingSessionPage(nonce: string): string {
  return htmlDocument(
    'Link expired',
    '<h1 id="title" tabindex="-1">This link has expired</h1><p>Cancellation links are valid for 24 hours. Please start again from your account page.</p>',
    NO_BRANDING,
    nonce,
    '',
  );
}

/** The 400 page: a path that holds no token (cut or lengthened when copied, or not one at all). */
export function invalidLinkPage(nonce: string): string {
  return htmlDocument(
    'Link not valid',
    '<h1 id="title" tabindex="-1">This link is not complete</h1><p>Part of the cancellation link may have been cut off or changed when it was copied. Please open it again from the message you received, or start again from your account page.</p>',
    NO_BRANDING,
    nonce,
    '',
  );
}
