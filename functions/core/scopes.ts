import { ValidationError } from './errors';

/**
 * The scopes an API key can hold (DESIGN §1, Scopes): domain words, checked by the request
 * pipeline against each route row's scopes.
 */
export const SCOPES = [
  'read',
  'write',
  'admin',
  'analytics',
  'webhooks',
  'email',
  'read:payments',
  'write:payments',
  'read:customers',
  'write:customers',
  'admin:customers',
  'read:campaigns',
  'write:campaigns',
  'read:cancel-flows',
  'write:cancel-flows',
  'read:vectors',
  'write:vectors',
] as const;
export type Scope = (typeof SCOPES)[number];

export class InvalidScopeError extends ValidationError {}

export const isScope = (value: string): value is Scope => (SCOPES as readonly string[]).includes(value);

/** The scopes a set of held scopes amounts to: admin implies every scope, write implies read. */
function effectiveScopes(held: readonly Scope[]): ReadonlySet<Scope> {
  if (held.includes('admin')) return new Set(SCOPES);
  const effective = new Set(held);
  if (effective.has('write')) effective.add('read');
  return effective;
}

/**
 * Whether keys holding `held` may call a route granted by any one of `anyOf` (DESIGN §1, Scopes):
 * admin implies every scope; write implies read; a granular scope (`read:payments`) grants only
 * itself. Nothing else is implied, so neither `read` nor `write:payments` grants `read:payments`.
 *
 * @example scopesGrant(['write'], ['read', 'read:payments']) // true
 */
export function scopesGrant(held: readonly Scope[], anyOf: readonly Scope[]): boolean {
  const effective = effectiveScopes(held);
  return anyOf.some((scope) => effective.has(scope));
}

/**
 * Scopes from a comma-separated list (`read,write`) or an array: known, non-empty, de-duplicated.
 * Throws InvalidScopeError otherwise.
 */
export function parseScopes(input: string | readonly string[]): Scope[] {
  const names = typeof input === 'string' ? input.split(',') : [...input];
  const scopes: Scope[] = [];
  for (const raw of names) {
    const name = raw.trim();
    if (name === '') throw new InvalidScopeError('Empty scope in the list', { param: 'scopes' });
    if (!isScope(name)) {
      throw new InvalidScopeError(`Unknown scope "${name}"; known scopes: ${SCOPES.join(', ')}`, { param: 'scopes' });
    }
    if (!scopes.includes(name)) scopes.push(name);
  }
  if (scopes.length === 0) throw new InvalidScopeError('At least one scope is required', { param: 'scopes' });
  return scopes;
}
