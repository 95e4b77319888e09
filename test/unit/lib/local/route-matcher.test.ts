import { routes } from '#api/routes';
import { RouteMatcher } from '#lib/local/route-matcher';

describe('RouteMatcher', () => {
  const matcher = new RouteMatcher(routes);

  it('matches every row of the route table by its own path', () => {
    // Prepare
    const sample = (path: string): string => path.replace(/\{[^}]+\}/g, 'x_1');
    // Act
    const misses = routes.filter((route) => {
      const match = matcher.match(route.method, sample(route.path));
      return match === undefined || !('route' in match) || match.route.operationId !== route.operationId;
    });
    // Assess
    expect(misses.map((route) => route.operationId)).toEqual([]);
  });

  it('prefers a literal segment over a parameter when both could match', () => {
    // Act
    const categories = matcher.match('GET', '/api/v1/decline-codes/categories');
    const code = matcher.match('GET', '/api/v1/decline-codes/card_declined');
    // Assess
    expect(categories && 'route' in categories && categories.route.operationId).toBe('listDeclineCategories');
    expect(code && 'route' in code && code.route.operationId).toBe('getDeclineCode');
    expect(code && 'route' in code && code.pathParameters).toEqual({ code: 'card_declined' });
  });

  it('passes path parameters on still percent-encoded, as a REST API does', () => {
    // Act
    const match = matcher.match('GET', '/api/v1/customers/by-email/jane%40example.com');
    // Assess
    expect(match && 'route' in match && match.pathParameters).toEqual({ email: 'jane%40example.com' });
  });

  it('names the allowed methods when only the method is wrong', () => {
    // Act
    const match = matcher.match('DELETE', '/api/v1/payments');
    // Assess
    expect(match).toEqual({ allowed: ['GET'] });
  });

  it('finds nothing for unknown paths and empty parameter segments', () => {
    // Act and assess
    expect(matcher.match('GET', '/api/v1/nothing-here')).toBeUndefined();
    expect(matcher.match('GET', '/api/v1/payments//timeline')).toBeUndefined();
  });

  it('matches provider webhooks and the square invoice path on the webhook host', () => {
    // Act
    const stripe = matcher.match('POST', '/stripe/merch_123');
    const invoice = matcher.match('POST', '/square/merch_123/invoice');
    // Assess
    expect(stripe && 'route' in stripe && stripe.route.operationId).toBe('receiveStripeWebhook');
    expect(invoice && 'route' in invoice && invoice.route.operationId).toBe('receiveSquareInvoiceWebhook');
  });
});
