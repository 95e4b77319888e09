import type { SuiteContext } from './context';
import type { Figure } from './figures';

export async function storms(_context: SuiteContext): Promise<Figure[]> {
  return [];
}
