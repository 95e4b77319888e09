import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExportStore } from '#core/exports';
import { env } from '#shared/env';
import { FilesystemExportStore } from './filesystem';
import { S3ExportStore } from './s3';

export { FilesystemExportStore } from './filesystem';
export { S3ExportStore } from './s3';

/** The local directory of export files: EXPORTS_DIR, else DATA_DIR/exports, else one in the system's temp dir. */
function exportsDir(): string {
  if (env.EXPORTS_DIR !== undefined) return env.EXPORTS_DIR;
  const dataDir = process.env.DATA_DIR;
  return dataDir === undefined || dataDir === '' ? join(tmpdir(), 'recovery-exports') : join(dataDir, 'exports');
}

let configured: ExportStore | undefined;

/** The exports store of EXPORTS_DRIVER (DESIGN §2: configuration picks the adapter), made once per process. */
export function exportStore(): ExportStore {
  if (configured !== undefined) return configured;
  if (env.EXPORTS_DRIVER === 'filesystem') {
    configured = new FilesystemExportStore(exportsDir());
  } else {
    if (env.EXPORTS_BUCKET === undefined) throw new Error('EXPORTS_BUCKET is required when EXPORTS_DRIVER is s3');
    configured = new S3ExportStore({ bucket: env.EXPORTS_BUCKET, region: env.AWS_REGION, endpoint: env.S3_EXPORTS_ENDPOINT });
  }
  return configured;
}
