import type { AbTestRecord } from '#core/experiments/ab-test';
import { ResourceNotFoundError } from '#core/errors';
import type { ExperimentRecord } from '#core/experiments/experiment';
import { getExperiment, listAbTests } from '#data/experiment-repository';

/**
 * The experiment a path names: an `xp_` experiment, or an `abt_` email A/B test (found among the
 * merchant's tests: they are filed under their campaign). 404 naming `id` otherwise, another
 * merchant's included.
 */
export async function experimentInPath(merchantId: string, id: string): Promise<{ experiment: ExperimentRecord } | { abTest: AbTestRecord }> {
  if (id.startsWith('abt_')) {
    const abTest = (await listAbTests(merchantId)).find((test) => test.id === id);
    if (abTest !== undefined) return { abTest };
  } else {
    const experiment = await getExperiment(merchantId, id);
    if (experiment !== undefined) return { experiment };
  }
  throw new ResourceNotFoundError(`No experiment ${id}.`, { param: 'id' });
}
