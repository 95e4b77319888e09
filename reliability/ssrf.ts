import type { SuiteContext } from './context';
import type { Figure } from './figures';

export async function ssrf(_context: SuiteContext): Promise<Figure[]> {
  return [];
}
