import { idBody } from '#core/ids';
import type { ExportJobRecord } from '#core/exports';
import { INTERNAL_ENTITY, internalKeys } from '../keys';
import { defineEntity } from './define-entity';

/** `exp_<body>`: a merchant data export job, its body time-ordered. */
export const exportJobIdFor = (body: string): string => `exp_${body}`;
export const exportJobBodyOf = (id: string): string | undefined => idBody(id, 'exp');

/** A merchant data export job: its state, counts and the file's location; nothing about any customer. */
export const exportJobEntity = defineEntity<ExportJobRecord>({
  name: INTERNAL_ENTITY.exportJob,
  key: (job) => internalKeys.exportJob(job.merchant_id, exportJobBodyOf(job.id) as string),
});
