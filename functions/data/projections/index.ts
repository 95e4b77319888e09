import { messageRollups } from './message-rollups';
import type { Projection } from './projection';

/** Every projection the table-stream consumer applies to each stream record (and the hourly recompute sums). */
export const projections: readonly Projection[] = [messageRollups];
