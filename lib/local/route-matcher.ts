import type { RouteDef } from '#api/route-types';

/**
 * Matches a request path to a row of the route table as API Gateway does: a literal segment
 * beats a `{param}` at the same position, and parameter values are passed on still
 * percent-encoded (REST APIs do not decode them).
 */
export interface RouteMatch {
  readonly route: RouteDef;
  readonly pathParameters: Readonly<Record<string, string>> | null;
}

interface Node {
  readonly literals: Map<string, Node>;
  param?: { readonly name: string; readonly node: Node };
  readonly methods: Map<string, RouteDef>;
}

const newNode = (): Node => ({ literals: new Map(), methods: new Map() });

export class RouteMatcher {
  private readonly root = newNode();

  constructor(routes: readonly RouteDef[]) {
    for (const route of routes) {
      let node = this.root;
      for (const segment of route.path.split('/').slice(1)) {
        if (segment.startsWith('{')) {
          node.param ??= { name: segment.slice(1, -1), node: newNode() };
          node = node.param.node;
        } else {
          let next = node.literals.get(segment);
          if (next === undefined) {
            next = newNode();
            node.literals.set(segment, next);
          }
          node = next;
        }
      }
      node.methods.set(route.method, route);
    }
  }

  /** The row for this method and path, or what the path allows when only the method is wrong. */
  match(method: string, path: string): RouteMatch | { readonly allowed: readonly string[] } | undefined {
    const segments = path.split('/').slice(1);
    if (segments.length > 1 && segments[segments.length - 1] === '') segments.pop();
    const found = this.walk(this.root, segments, 0, {});
    if (found === undefined) return undefined;
    const route = found.node.methods.get(method);
    if (route === undefined) return { allowed: [...found.node.methods.keys()] };
    const names = Object.keys(found.params);
    return { route, pathParameters: names.length === 0 ? null : found.params };
  }

  private walk(node: Node, segments: string[], index: number, params: Record<string, string>): { node: Node; params: Record<string, string> } | undefined {
    if (index === segments.length) return node.methods.size > 0 ? { node, params } : undefined;
    const segment = segments[index] as string;
    const literal = node.literals.get(segment);
    if (literal !== undefined) {
      const found = this.walk(literal, segments, index + 1, params);
      if (found !== undefined) return found;
    }
    if (node.param !== undefined && segment !== '') {
      return this.walk(node.param.node, segments, index + 1, { ...params, [node.param.name]: segment });
    }
    return undefined;
  }
}
