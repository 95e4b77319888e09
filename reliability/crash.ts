import type { SuiteContext } from './context';
import type { Figure } from './figures';

export async function crash(_context: SuiteContext): Promise<Figure[]> {
  return [];
}
