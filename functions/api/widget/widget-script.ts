/**
 * The embeddable recovery widget, served as `GET /widget.js` (framework-free, no dependencies,
 * under 15 KB gzipped: a unit test holds it there). A merchant's page includes it with the
 * attributes its server signed:
 *
 *   <script src="https://{edge host}/widget.js" data-merchant="merch_…" data-customer="cus_…"
 *           data-timestamp="1764000000" data-signature="<hex HMAC-SHA256>" async></script>
 *
 * It posts them to `/api/widget/init` on the host it was loaded from (as `text/plain`, a CORS
 * simple request: no preflight) and, when the customer has a failed payment, shows a banner with
 * the amount (formatted for the currency by `Intl.NumberFormat`) and an "Update payment method"
 * button that opens a modal dialog (role=dialog, aria-modal, labelled and described, focus kept
 * inside, Esc or Close closes it and returns focus to the button) holding the update link.
 * Nothing is shown when there is nothing owed or the call fails. The merchant's colour is used for
 * the buttons with black or white text, whichever contrasts more (WCAG 2.2 AA).
 */
export const WIDGET_SCRIPT = `(function () {
  'use strict';
  var script = document.currentScript;
  if (!script || script.getAttribute('data-rw-started')) return;
  script.setAttribute('data-rw-started', '1');
  var d = script.dataset;
  var base = new URL(script.src, location.href).origin;
  var P = 'rw-' + Math.random().toString(36).slice(2, 8);

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    for (var name in attrs) {
      if (name === 'text') node.textContent = attrs[name];
      else node.setAttribute(name, attrs[name]);
    }
    (children || []).forEach(function (child) { if (child) node.appendChild(child); });
    return node;
  }

  function money(minor, currency) {
    var code = String(currency).toUpperCase();
    try {
      var digits = new Intl.NumberFormat('en', { style: 'currency', currency: code }).resolvedOptions().maximumFractionDigits;
      return new Intl.NumberFormat(navigator.language || 'en', { style: 'currency', currency: code }).format(minor / Math.pow(10, digits));
    } catch (e) {
      return (minor / 100).toFixed(2) + ' ' + code;
    }
  }

  function luminance(hex) {
    var c = [1, 3, 5].map(function (i) {
      var v = parseInt(hex.slice(i, i + 2), 16) / 255;
      return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
    });
    return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
  }

  function textOn(hex) {
    var l = luminance(hex);
    return (l + 0.05) / 0.05 >= 1.05 / (l + 0.05) ? '#000000' : '#ffffff';
  }

  function styles(color) {
    var fg = textOn(color);
    var css = [
      '.' + P + '-banner{font:15px/1.5 system-ui,sans-serif;color:#1a1a1a;background:#fff;border:1px solid #c8c8c8;border-left:6px solid ' + color + ';border-radius:6px;padding:12px 16px;margin:12px 0;display:flex;gap:12px;align-items:center;flex-wrap:wrap}',
      '.' + P + '-banner p{margin:0;flex:1 1 16em}',
      '.' + P + '-logo{max-height:32px;max-width:120px}',
      '.' + P + '-btn{font:inherit;font-weight:600;cursor:pointer;border:2px solid ' + color + ';background:' + color + ';color:' + fg + ';border-radius:6px;padding:8px 14px;text-decoration:none;display:inline-block}',
      '.' + P + '-btn:focus-visible,.' + P + '-close:focus-visible{outline:3px solid #1a1a1a;outline-offset:2px}',
      '.' + P + '-backdrop{position:fixed;inset:0;background:rgba(0,0,0,.55);display:flex;align-items:center;justify-content:center;z-index:2147483647}',
      '.' + P + '-dialog{font:15px/1.5 system-ui,sans-serif;color:#1a1a1a;background:#fff;border-radius:8px;max-width:28rem;width:calc(100% - 2rem);padding:20px 24px;box-shadow:0 8px 32px rgba(0,0,0,.3)}',
      '.' + P + '-dialog h2{font-size:1.25rem;margin:0 0 8px}',
      '.' + P + '-actions{display:flex;gap:12px;justify-content:flex-end;margin-top:16px;flex-wrap:wrap}',
      '.' + P + '-close{font:inherit;cursor:pointer;background:#fff;color:#1a1a1a;border:2px solid #595959;border-radius:6px;padding:8px 14px}'
    ].join('');
    document.head.appendChild(el('style', { text: css }));
  }

  function focusables(root) {
    return Array.prototype.filter.call(root.querySelectorAll('a[href],button:not([disabled])'), function (n) { return n.offsetParent !== null || n === document.activeElement; });
  }

  function openDialog(opener, data, amount) {
    var name = data.branding.merchant_name || 'the merchant';
    var title = el('h2', { id: P + '-title', text: 'Update your payment method' });
    var text = el('p', { id: P + '-desc', text: 'Your payment of ' + amount + ' to ' + name + ' did not go through. Update your payment method on the secure payment page to keep your subscription active.' });
    var go = el('a', { href: data.update_url, 'class': P + '-btn', text: 'Update payment method' });
    var close = el('button', { type: 'button', 'class': P + '-close', text: 'Close' });
    var dialog = el('div', { role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': P + '-title', 'aria-describedby': P + '-desc', 'class': P + '-dialog' }, [
      title, text, el('div', { 'class': P + '-actions' }, [close, go])
    ]);
    var backdrop = el('div', { 'class': P + '-backdrop' }, [dialog]);
    function shut() {
      document.removeEventListener('keydown', onKey, true);
      backdrop.remove();
      opener.focus();
    }
    function onKey(event) {
      if (event.key === 'Escape') { event.preventDefault(); shut(); return; }
      if (event.key !== 'Tab') return;
      var items = focusables(dialog);
      var first = items[0];
      var last = items[items.length - 1];
      if (!dialog.contains(document.activeElement)) { event.preventDefault(); first.focus(); }
      else if (event.shiftKey && document.activeElement === first) { event.preventDefault(); last.focus(); }
      else if (!event.shiftKey && document.activeElement === last) { event.preventDefault(); first.focus(); }
    }
    close.addEventListener('click', shut);
    backdrop.addEventListener('click', function (event) { if (event.target === backdrop) shut(); });
    document.addEventListener('keydown', onKey, true);
    document.body.appendChild(backdrop);
    go.focus();
  }

  function show(data) {
    if (!data || !data.has_failed_payment || !data.update_url) return;
    var color = /^#[0-9a-fA-F]{6}$/.test(data.branding.primary_color || '') ? data.branding.primary_color : '#0b57d0';
    styles(color);
    var amount = money(data.amount_cents, data.currency);
    var logo = data.branding.logo_url ? el('img', { src: data.branding.logo_url, alt: (data.branding.merchant_name || 'Merchant') + ' logo', 'class': P + '-logo' }) : null;
    var button = el('button', { type: 'button', 'class': P + '-btn', 'aria-haspopup': 'dialog', text: 'Update payment method' });
    var banner = el('section', { 'class': P + '-banner', 'aria-label': 'Payment problem' }, [
      logo,
      el('p', { text: 'Your payment of ' + amount + ' failed. Please update your payment method.' }),
      button
    ]);
    button.addEventListener('click', function () { openDialog(button, data, amount); });
    if (script.closest('body') && script.parentNode) script.parentNode.insertBefore(banner, script.nextSibling);
    else document.body.insertBefore(banner, document.body.firstChild);
  }

  fetch(base + '/api/widget/init', {
    method: 'POST',
    credentials: 'omit',
    headers: { 'Content-Type': 'text/plain' },
    body: JSON.stringify({ merchant_id: d.merchant, customer_id: d.customer, timestamp: Number(d.timestamp), signature: d.signature })
  })
    .then(function (response) { return response.ok ? response.json() : null; })
    .then(show)
    .catch(function () {});
})();
`;
