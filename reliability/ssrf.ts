import { type AddressInfo, createServer, type Server } from 'node:net';
import fc from 'fast-check';
import { routes } from '#api/routes';
import type { RouteDef } from '#api/route-types';
import { call } from '#test/fixtures/http';
import { arbitraryOf, type JsonSchema, jsonSchemaOf } from './arbitraries';
import { PUBLIC_ADDRESS, PUBLIC_HOST, type SuiteContext } from './context';
import { type Figure, firstOf } from './figures';
import { serveOnLoopback } from './loopback';
import { type SeededTenant, seedTenant } from './seed';

/** A body property that takes a URL: by its name or its JSON Schema format. */
const URL_NAME = /(^|_)(url|uri|href|endpoint|webhook|callback|hook|redirect|upstream|origin)(_|$)/i;

interface UrlField {
  readonly route: RouteDef;
  readonly path: readonly string[];
  readonly body: JsonSchema;
}

/** Every URL-taking field of every built row's body, nested ones included, from the route table. */
export function urlFields(): UrlField[] {
  const fields: UrlField[] = [];
  const walk = (route: RouteDef, body: JsonSchema, schema: JsonSchema, path: readonly string[], depth: number): void => {
    if (depth > 4) return;
    for (const option of [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])]) walk(route, body, option, path, depth + 1);
    for (const [name, inner] of Object.entries(schema.properties ?? {})) {
      const stringy = inner.type === 'string' || (inner.anyOf ?? []).some((option) => option.type === 'string');
      if (stringy && (URL_NAME.test(name) || inner.format === 'uri')) fields.push({ route, path: [...path, name], body });
      else walk(route, body, inner, [...path, name], depth + 1);
    }
  };
  for (const route of routes) {
    // A DELETE names a saved URL to forget; it never connects to it.
    if (route.schemas?.body === undefined || route.method === 'GET' || route.method === 'DELETE') continue;
    const body = jsonSchemaOf(route.schemas.body);
    walk(route, body, body, [], 0);
  }
  return fields;
}

/** A TCP listener on loopback (IPv4 and IPv6) that counts every connection made to it: an SSRF probe that connected. */
async function connectionCounter(): Promise<{ port: number; connections: () => number; close: () => Promise<void> }> {
  let count = 0;
  const server: Server = createServer((socket) => {
    count += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen({ port: 0, host: '::', ipv6Only: false }, resolve));
  return {
    port: (server.address() as AddressInfo).port,
    connections: () => count,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The addresses a URL must never reach, each written the ways an attacker writes it. `port` is the counting listener's. */
function probes(port: number): Array<readonly [string, string]> {
  return [
    ['private 10/8', 'https://10.0.0.7/hook'],
    ['private 172.16/12', 'https://172.16.0.1/hook'],
    ['private 192.168/16', 'https://192.168.1.1/hook'],
    ['CGNAT', 'https://100.64.0.1/hook'],
    ['unspecified', `https://0.0.0.0:${port}/hook`],
    ['loopback', `https://127.0.0.1:${port}/hook`],
    ['loopback http', `http://127.0.0.1:${port}/hook`],
    ['loopback name', `https://localhost:${port}/hook`],
    ['loopback IPv6', `https://[::1]:${port}/hook`],
    ['link-local', 'https://169.254.1.1/hook'],
    ['link-local IPv6', 'https://[fe80::1]/hook'],
    ['metadata', 'https://169.254.169.254/latest/meta-data/'],
    ['metadata IPv6 (EC2)', 'https://[fd00:ec2::254]/latest/meta-data/'],
    ['IPv4-mapped loopback', `https://[::ffff:127.0.0.1]:${port}/hook`],
    ['IPv4-mapped loopback, hex', `https://[::ffff:7f00:1]:${port}/hook`],
    ['IPv4-mapped metadata', 'https://[::ffff:169.254.169.254]/latest/meta-data/'],
    ['decimal loopback', `https://2130706433:${port}/hook`],
    ['decimal metadata', 'https://2852039166/latest/meta-data/'],
    ['octal loopback', `https://0177.0.0.1:${port}/hook`],
    ['hex loopback', `https://0x7f.0.0.1:${port}/hook`],
    ['short loopback', `https://127.1:${port}/hook`],
    ['octal metadata', 'https://0251.0376.0251.0376/latest/meta-data/'],
    ['name resolving loopback', `https://loopback.reliability.test:${port}/hook`],
    ['name resolving private', 'https://private.reliability.test/hook'],
    ['name resolving metadata', 'https://metadata.reliability.test/latest/meta-data/'],
    ['name resolving public and loopback', `https://mixed.reliability.test:${port}/hook`],
    ['name resolving IPv6 loopback', `https://v6.reliability.test:${port}/hook`],
    ['name that does not resolve', 'https://nowhere.reliability.test/hook'],
    ['credentials in the URL', `https://user:secret@loopback.reliability.test:${port}/hook`],
    ['trailing-dot name', `https://loopback.reliability.test.:${port}/hook`],
  ];
}

function withValue(body: unknown, path: readonly string[], value: string): Record<string, unknown> {
  const root: Record<string, unknown> =
    body !== null && typeof body === 'object' && !Array.isArray(body) ? structuredClone(body as Record<string, unknown>) : {};
  let cursor = root;
  for (const [index, name] of path.entries()) {
    if (index === path.length - 1) cursor[name] = value;
    else {
      const inner = cursor[name];
      cursor[name] = inner !== null && typeof inner === 'object' && !Array.isArray(inner) ? inner : {};
      cursor = cursor[name] as Record<string, unknown>;
    }
  }
  return root;
}

/** The row's path with the tenant's webhook endpoint (the only URL-taking row with an id today), else `x`. */
const pathOf = (route: RouteDef, tenant: SeededTenant): string =>
  route.path.replace(/\{[^}]+\}/g, route.path.includes('/webhooks/endpoints/') ? tenant.ids.webhook_endpoint : 'x');

/** Values of fields whose rule JSON Schema cannot carry (a refinement against the event catalogue). */
const KNOWN_VALUES: Readonly<Record<string, unknown>> = { event_type: 'payment.failed', events: ['payment.failed'] };

/** A body the row takes with a public URL in the field (a control: it must be 2xx, or the probes prove nothing). */
async function acceptedBody(context: SuiteContext, tenant: SeededTenant, field: UrlField): Promise<Record<string, unknown> | undefined> {
  for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
    const [sample] = fc.sample(arbitraryOf(field.body), { numRuns: 1, seed });
    const known = Object.fromEntries(Object.entries(KNOWN_VALUES).filter(([name]) => field.body.properties?.[name] !== undefined));
    const body = withValue({ ...(sample as object), ...known }, field.path, `https://${PUBLIC_HOST}/control-${seed}`);
    const answer = await call(`${context.origin}${pathOf(field.route, tenant)}`, { method: field.route.method, key: tenant.key, body });
    if (answer.status >= 200 && answer.status < 300) return body;
  }
  return undefined;
}

/** A receiver on loopback that redirects every request to the counting listener. */
async function redirector(target: string): Promise<{ url: string; hits: () => number; close: () => Promise<void> }> {
  let hits = 0;
  const server = await serveOnLoopback((_request, _body, response) => {
    hits += 1;
    response.writeHead(307, { Location: target }).end();
  });
  return { url: `${server.origin}/hook`, hits: () => hits, close: server.close };
}

/**
 * SSRF probes (issue 17): every URL-taking body field of the route table (webhook endpoint URLs,
 * automation target URLs, any later one), each given private, loopback, link-local and metadata
 * addresses, IPv4-mapped IPv6, decimal, octal and hex IPv4 forms, and names the suite's DNS server
 * resolves to such addresses. Then at delivery: a name that turns private after it was saved (DNS
 * rebinding), and a receiver that redirects. Figures: probes accepted (2xx) and connections the
 * counting listener received, both 0.
 */
export async function ssrf(context: SuiteContext): Promise<Figure[]> {
  const counter = await connectionCounter();
  const names: Readonly<Record<string, readonly string[]>> = {
    'loopback.reliability.test': ['127.0.0.1'],
    'private.reliability.test': ['10.1.2.3'],
    'metadata.reliability.test': ['169.254.169.254'],
    'mixed.reliability.test': [PUBLIC_ADDRESS, '127.0.0.1'],
    'v6.reliability.test': ['::1'],
  };
  for (const [name, addresses] of Object.entries(names)) context.dns.set(name, addresses);
  const tenant = await seedTenant(context);
  const accepted: string[] = [];
  const unprobed: string[] = [];
  let sent = 0;
  try {
    const fields = urlFields();
    for (const field of fields) {
      const label = `${field.route.method} ${field.route.path} ${field.path.join('.')}`;
      const control = await acceptedBody(context, tenant, field);
      if (control === undefined) {
        unprobed.push(label);
        continue;
      }
      for (const [kind, url] of probes(counter.port)) {
        sent += 1;
        const answer = await call(`${context.origin}${pathOf(field.route, tenant)}`, {
          method: field.route.method,
          key: tenant.key,
          body: withValue(control, field.path, url),
        });
        if (answer.status < 300 || answer.status >= 500) accepted.push(`${label} ${kind}: ${answer.status}`);
      }
    }
    const deliveryTime = await atDelivery(context, tenant, counter.port);
    sent += deliveryTime.probes;
    accepted.push(...deliveryTime.accepted);
    await context.stack.runtime.queues.drain();
    const connected = counter.connections();
    return [
      {
        area: 'ssrf',
        name: 'probes accepted (2xx at save or delivery)',
        value: accepted.length,
        rule: 'eq',
        target: 0,
        detail: `${sent} probes over ${fields.length - unprobed.length} URL fields${unprobed.length > 0 ? `; not probed (no body accepted): ${unprobed.join(', ')}` : ''}${firstOf(accepted)}`,
      },
      { area: 'ssrf', name: 'connections to a loopback listener', value: connected, rule: 'eq', target: 0, detail: 'a TCP listener counting every connection' },
      {
        area: 'ssrf',
        name: 'redirect probe reached its redirector',
        value: deliveryTime.redirectorHits,
        rule: 'min',
        target: 1,
        detail: 'else the redirect probe proved nothing',
      },
      {
        area: 'ssrf',
        name: 'URL fields probed',
        value: fields.length - unprobed.length,
        rule: 'min',
        target: 2,
        detail: fields.map((field) => `${field.route.path} ${field.path.join('.')}`).join(', '),
      },
    ];
  } finally {
    for (const name of Object.keys(names)) context.dns.remove(name);
    await counter.close();
  }
}

/**
 * At delivery: an endpoint saved on a public name that now resolves to loopback (DNS rebinding),
 * sent a test event; and an endpoint whose receiver redirects to the counting listener (saved
 * with loopback admitted for that save and send, as the local stack admits it: the send reaches
 * the redirector, which must see the request, and must not follow).
 */
async function atDelivery(context: SuiteContext, tenant: SeededTenant, port: number): Promise<{ probes: number; accepted: string[]; redirectorHits: number }> {
  const accepted: string[] = [];
  const rebinding = 'rebind.reliability.test';
  context.dns.set(rebinding, [PUBLIC_ADDRESS]);
  const saved = await call<{ data: { id: string } }>(`${context.apiUrl}/webhooks/endpoints`, {
    method: 'POST',
    key: tenant.key,
    body: { url: `https://${rebinding}:${port}/hook` },
  });
  context.dns.set(rebinding, ['127.0.0.1']);
  const rebound = await call<{ data?: { success?: boolean; delivered?: boolean; status_code?: number | null } }>(
    `${context.apiUrl}/webhooks/endpoints/${saved.body.data.id}/test`,
    { method: 'POST', key: tenant.key },
  );
  if (rebound.status >= 500 || rebound.body.data?.status_code === 200)
    accepted.push(`DNS rebinding at delivery: ${rebound.status} ${rebound.text.slice(0, 100)}`);
  context.dns.remove(rebinding);

  const redirecting = await redirector(`http://127.0.0.1:${port}/followed`);
  try {
    process.env.WEBHOOK_ALLOW_LOOPBACK = 'true';
    const endpoint = await call<{ data: { id: string } }>(`${context.apiUrl}/webhooks/endpoints`, {
      method: 'POST',
      key: tenant.key,
      body: { url: redirecting.url },
    });
    const sent = await call<{ data?: { status_code?: number | null } }>(`${context.apiUrl}/webhooks/endpoints/${endpoint.body.data.id}/test`, {
      method: 'POST',
      key: tenant.key,
    });
    if (sent.status >= 500 || sent.body.data?.status_code === 200) accepted.push(`redirect followed: ${sent.status} ${sent.text.slice(0, 100)}`);
    return { probes: 2, accepted, redirectorHits: redirecting.hits() };
  } finally {
    process.env.WEBHOOK_ALLOW_LOOPBACK = 'false';
    await redirecting.close();
  }
}
