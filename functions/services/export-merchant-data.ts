import { exportStore } from '#adapters/exports/index';
import { countKey, customerLine, type ExportLineKind, paymentLine, recoveryLine } from '#core/export-lines';
import { type ExportCounts, type ExportJobRecord, type ExportStore, JSON_LINES } from '#core/exports';
import { createExportJob, finishExportJob } from '#data/export-job-repository';
import { merchantCustomers, merchantPayments } from '#data/export-queries';
import { logger } from '#shared/logger';

type MutableCounts = { -readonly [K in keyof ExportCounts]: number };

/**
 * The export's lines, as UTF-8 bytes, counted as they go: the merchant's customers, then each
 * payment followed by its recovery (the same item read once), all oldest first.
 */
async function* exportLines(merchantId: string, counts: MutableCounts): AsyncGenerator<Buffer> {
  const line = (kind: ExportLineKind, value: object): Buffer => {
    counts[countKey[kind]] += 1;
    return Buffer.from(`${JSON.stringify(value)}\n`, 'utf8');
  };
  for await (const customer of merchantCustomers(merchantId)) yield line('customer', customerLine(customer));
  for await (const payment of merchantPayments(merchantId)) {
    yield line('payment', paymentLine(payment));
    yield line('recovery', recoveryLine(payment));
  }
}

export interface MerchantExportOptions {
  /** @default the configured store (EXPORTS_DRIVER) */
  readonly store?: ExportStore;
  /** @default now */
  readonly now?: Date;
}

/**
 * Runs a merchant data export (docs/data-exports.md): records the job `running`, streams the
 * merchant's customers, payments and recoveries as JSON lines through the exports port, and ends
 * the job `succeeded` with its counts, size and location, or `failed` with a reason that leaks
 * nothing (the cause is logged). Returns the job as it ended. The caller checks the merchant exists.
 *
 * @example const job = await exportMerchantData('merch_1'); // job.state === 'succeeded', job.location
 */
export async function exportMerchantData(merchantId: string, options: MerchantExportOptions = {}): Promise<ExportJobRecord> {
  const store = options.store ?? exportStore();
  const job = await createExportJob(merchantId, JSON_LINES, options.now);
  const counts: MutableCounts = { payments: 0, recoveries: 0, customers: 0 };
  let ended: ExportJobRecord | undefined;
  try {
    const stored = await store.put(merchantId, job.id, exportLines(merchantId, counts), JSON_LINES);
    ended = await finishExportJob(job, { state: 'succeeded', counts, size: stored.size, location: stored.location });
  } catch (error) {
    logger.error('merchant export failed', {
      merchant_id: merchantId,
      job_id: job.id,
      error: error instanceof Error ? { name: error.name, message: error.message } : String(error),
    });
    ended = await finishExportJob(job, { state: 'failed', counts, error: 'The export could not be written; see the logs for the job id.' });
  }
  if (ended === undefined) throw new Error(`export job ${job.id} was ended by another process`);
  return ended;
}
