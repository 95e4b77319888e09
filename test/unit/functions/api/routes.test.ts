import { type RouteDef, RouteTableError, validateRoutes } from '#api/route-types';
import { groups, routes } from '#api/routes';
import { PSPS } from '#core/providers';
import { routeRow } from '#test/fixtures/route-row';

const row = routeRow;

/**
 * Rows beyond the spec's tables: the template CRUD merchants need to save the templates campaigns
 * name (docs/api.md), and the recovery (replay) of an endpoint's failed webhook deliveries (docs/webhooks.md).
 */
const BEYOND_SPEC = ['createTemplate', 'listTemplates', 'getTemplate', 'updateTemplate', 'deleteTemplate', 'recoverWebhookEndpoint'];
/** The hosted pages issue 14 names (edge host, HTML or script, not spec API paths): the cancel page, the widget script and the update-payment page. */
const HOSTED_PAGES = ['showCancelPage', 'getWidgetScript', 'showUpdatePayment'];

describe('the route table', () => {
  it('lists the 130 operations of the spec, 13 provider webhooks, the square invoice path, the OpenAPI document, the template CRUD, the webhook recovery, the two unsubscribe rows and the hosted pages', () => {
    // Prepare
    const webhookRows = routes.filter((route) => route.group === 'provider-webhooks');
    const ownRows = routes.filter((route) => route.group === 'unsubscribe');
    const specRows = routes.filter(
      (route) =>
        !['provider-webhooks', 'unsubscribe'].includes(route.group) &&
        route.operationId !== 'getOpenApiDocument' &&
        ![...BEYOND_SPEC, ...HOSTED_PAGES].includes(route.operationId),
    );
    // Assess
    expect(routes).toHaveLength(147 + BEYOND_SPEC.length + HOSTED_PAGES.length);
    expect(ownRows.map((route) => `${route.method} ${route.path}`)).toEqual(['GET /unsubscribe/{token}', 'POST /unsubscribe/{token}']);
    expect(specRows).toHaveLength(130);
    expect(webhookRows.map((route) => route.path).sort()).toEqual([...PSPS.map((psp) => `/${psp}/{merchant_id}`), '/square/{merchant_id}/invoice'].sort());
  });

  it('puts merchant rows under /api/v1 and edge rows under /api or /ws, but the hosted pages (unsubscribe: RFC 8058 links; cancel, update-payment, widget script)', () => {
    // Assess
    for (const route of routes) {
      if (route.api === 'merchant') expect(route.path).toMatch(/^\/api\/v1\//);
      if (route.api === 'edge')
        expect(route.path).toMatch(/^\/(api\/(?!v1\/)|ws\/|unsubscribe\/\{token\}$|cancel\/\{token\}$|update-payment\/\{token\}$|widget\.js$)/);
    }
  });

  it('serves /health on every host and nothing else on every host', () => {
    // Assess
    expect(routes.filter((route) => route.api === 'all').map((route) => route.path)).toEqual(['/health']);
  });

  it('keeps the public routes of the spec public and /status optional', () => {
    // Prepare
    const auth = (path: string): string | undefined => routes.find((route) => route.path === path && route.method === 'GET')?.auth;
    // Assess
    expect(auth('/health')).toBe('public');
    expect(auth('/api/v1/ai/ping')).toBe('public');
    expect(auth('/api/widget/branding/{merchant_id}')).toBe('public');
    expect(auth('/api/custom-hostname/branding/{merchant_id}')).toBe('public');
    expect(auth('/api/v1/status')).toBe('optional_api_key');
  });

  it('gives every group at least one row and names a handler folder per group', () => {
    // Assess
    expect(groups.length).toBeGreaterThan(20);
    for (const group of groups) expect(routes.some((route) => route.group === group)).toBe(true);
  });
});

describe('validateRoutes', () => {
  it('accepts a well-formed table', () => {
    // Act and assess
    expect(() => validateRoutes([row(), row({ operationId: 'listThings', path: '/api/v1/things' })])).not.toThrow();
  });

  it.each([
    ['a duplicate method and path', [row(), row({ operationId: 'other' })], /duplicate method and path/],
    ['a duplicate operationId', [row(), row({ path: '/api/v1/others' })], /duplicate operationId/],
    ['a trailing slash', [row({ path: '/api/v1/things/' })], /trailing slash|segment/],
    ['a wildcard segment', [row({ path: '/api/v1/{proxy+}' })], /segment/],
    ['a colon parameter', [row({ path: '/api/v1/things/:id' })], /segment/],
    ['two parameter names at one position', [row(), row({ operationId: 'deleteThing', method: 'DELETE', path: '/api/v1/things/{thingId}' })], /conflicts/],
    ['an unknown auth kind', [row({ auth: 'magic' as RouteDef['auth'] })], /unknown auth kind/],
    ['an unknown scope', [row({ scopes: ['root' as RouteDef['scopes'][number]] })], /unknown scope/],
    ['an api_key row without scopes', [row({ scopes: [] })], /without scopes/],
    ['scopes on a public row', [row({ auth: 'public' })], /scopes on a public route/],
    ['a path without a leading slash', [row({ path: 'api/v1/things' })], /must start with/],
    ['an operationId that is not camelCase', [row({ operationId: 'Get-thing' })], /camelCase/],
  ])('refuses %s', (_name, table, message) => {
    // Act and assess
    expect(() => validateRoutes(table)).toThrow(RouteTableError);
    expect(() => validateRoutes(table)).toThrow(message);
  });
});
