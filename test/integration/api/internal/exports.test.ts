/**
 * POST /api/v1/internal/exports/upload and GET /api/v1/internal/exports/{merchantId}/{jobId} over
 * HTTP and DynamoDB Local, with the filesystem exports adapter in a directory of this file's own,
 * and the merchant data export job (services/export-merchant-data.ts) read back through the
 * download route line by line: the merchant's customers, payments and recoveries, money as
 * stored, nothing internal, nothing of another merchant. The cron secret is the only credential.
 */
import { CRON_SECRET, cronAuth } from '#test/fixtures/cron-secret';
import { EXPORTS_DIR } from '#test/fixtures/exports-dir';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FilesystemExportStore } from '#adapters/exports/index';
import { uploadExportSchemas } from '#api/internal/schemas';
import { MAX_EXPORT_TRANSFER_BYTES } from '#core/exports';
import { getExportJob } from '#data/export-job-repository';
import { exportMerchantData } from '#services/export-merchant-data';
import type { LocalStack } from '#lib/local/local-stack';
import { call } from '#test/fixtures/http';
import { startTestStack } from '#test/fixtures/local-stack';
import { moveThrough, seedPayment } from '#test/fixtures/payments';
import { newTenant } from '#test/fixtures/tenants';

jest.setTimeout(60_000);

interface ErrorBody {
  error?: { code: string; message: string; param?: string; request_id: string };
}
interface UploadBody extends ErrorBody {
  data: { object: string; merchant_id: string; job_id: string; content_type: string; size: number; location: string; download_path: string };
}

let sequence = 0;
const jobId = (): string => {
  sequence += 1;
  return `job_${sequence}_${Math.random().toString(36).slice(2, 10)}`;
};
const LINES = '{"object":"note","n":1}\n{"object":"note","n":2}\n';

describe('internal export files', () => {
  let stack: LocalStack;
  const upload = (query: string, body: string, headers: Record<string, string> = {}) =>
    call<UploadBody>(`${stack.api_url}/internal/exports/upload?${query}`, {
      method: 'POST',
      rawBody: body,
      headers: { ...cronAuth(), 'Content-Type': 'application/x-ndjson', ...headers },
    });
  const download = (merchantId: string, job: string, headers: Record<string, string> = cronAuth()) =>
    call<ErrorBody>(`${stack.api_url}/internal/exports/${encodeURIComponent(merchantId)}/${encodeURIComponent(job)}`, { headers });

  beforeAll(async () => {
    stack = await startTestStack();
  }, 60_000);

  afterAll(async () => {
    await stack.stop();
  });

  describe('POST /internal/exports/upload', () => {
    it('stores the file through the exports port and answers where it is (201)', async () => {
      // Prepare
      const { merchant } = await newTenant();
      const job = jobId();
      // Act
      const response = await upload(`merchant_id=${merchant.id}&job_id=${job}`, LINES, { 'Content-Type': 'application/x-ndjson; charset=utf-8' });
      // Assess
      expect(response.status).toBe(201);
      expect(uploadExportSchemas.responses[201].safeParse(response.body).success).toBe(true);
      expect(response.body.data).toEqual({
        object: 'export_file',
        merchant_id: merchant.id,
        job_id: job,
        content_type: 'application/x-ndjson',
        size: Buffer.byteLength(LINES),
        location: join(EXPORTS_DIR, merchant.id, `${job}.data`),
        download_path: `/api/v1/internal/exports/${merchant.id}/${job}`,
      });
      const stored = await new FilesystemExportStore(EXPORTS_DIR).get(merchant.id, job);
      expect(stored).toEqual({ contentType: 'application/x-ndjson', bytes: Buffer.from(LINES) });
    });

    it('refuses a second file under the same merchant and job with 409, keeping the first', async () => {
      // Prepare
      const { merchant } = await newTenant();
      const job = jobId();
      await upload(`merchant_id=${merchant.id}&job_id=${job}`, LINES);
      // Act
      const response = await upload(`merchant_id=${merchant.id}&job_id=${job}`, '{"replaced":true}\n');
      // Assess
      expect(response.status).toBe(409);
      expect(response.body.error).toMatchObject({ code: 'state_conflict', param: 'job_id' });
      expect((await download(merchant.id, job)).text).toBe(LINES);
    });

    it('answers 404 for a merchant that does not exist, storing nothing', async () => {
      // Prepare
      const job = jobId();
      // Act
      const response = await upload(`merchant_id=merch_nobody&job_id=${job}`, LINES);
      // Assess
      expect(response.status).toBe(404);
      expect(response.body.error).toMatchObject({ code: 'resource_not_found', param: 'merchant_id' });
      expect(await new FilesystemExportStore(EXPORTS_DIR).head('merch_nobody', job)).toBeUndefined();
    });

    it.each([
      ['a missing cron secret', {}],
      ['a wrong cron secret', { Authorization: `Bearer ${CRON_SECRET}x` }],
    ])('refuses %s with 401 and stores nothing', async (_case, auth) => {
      // Prepare
      const { merchant } = await newTenant();
      const job = jobId();
      // Act
      const response = await call<ErrorBody>(`${stack.api_url}/internal/exports/upload?merchant_id=${merchant.id}&job_id=${job}`, {
        method: 'POST',
        rawBody: LINES,
        headers: { 'Content-Type': 'application/x-ndjson', ...auth },
      });
      // Assess
      expect(response.status).toBe(401);
      expect(response.body.error?.code).toBe('invalid_api_key');
      expect(await new FilesystemExportStore(EXPORTS_DIR).head(merchant.id, job)).toBeUndefined();
    });

    it.each([
      ['a job id climbing out', (m: string) => `merchant_id=${m}&job_id=..%2F..%2Fetc`, 422, 'validation_error', 'job_id'],
      ['a 10 KB job id', (m: string) => `merchant_id=${m}&job_id=${'j'.repeat(10_240)}`, 422, 'validation_error', 'job_id'],
      ['a merchant id with a slash', () => `merchant_id=merch%2F..&job_id=j1`, 422, 'validation_error', 'merchant_id'],
      ['no job id', (m: string) => `merchant_id=${m}`, 400, 'invalid_request', 'job_id'],
      ['an unknown query parameter', (m: string) => `merchant_id=${m}&job_id=j2&__proto__=1`, 400, 'invalid_request', '__proto__'],
    ])('answers %s with the error envelope naming it', async (_case, query, status, code, param) => {
      // Prepare
      const { merchant } = await newTenant();
      // Act
      const response = await upload(query(merchant.id), LINES);
      // Assess
      expect(response.status).toBe(status);
      expect(response.body.error).toMatchObject({ code, param });
    });

    it.each([
      ['a binary content type', { 'Content-Type': 'application/octet-stream' }, LINES, 'Content-Type'],
      ['a charset other than UTF-8', { 'Content-Type': 'text/csv; charset=iso-8859-1' }, 'a,b\n', 'Content-Type'],
      ['JSON lines with a broken line', {}, '{"ok":1}\n{"ok":\n', 'body'],
      ['JSON that is not JSON', { 'Content-Type': 'application/json' }, '{"a":', 'body'],
    ])('refuses %s with 422 naming it', async (_case, headers, body, param) => {
      // Prepare
      const { merchant } = await newTenant();
      // Act
      const response = await upload(`merchant_id=${merchant.id}&job_id=${jobId()}`, body, headers);
      // Assess
      expect(response.status).toBe(422);
      expect(response.body.error).toMatchObject({ code: 'validation_error', param });
    });

    it('refuses an empty body (400) and one over 4 MiB (400), storing nothing', async () => {
      // Prepare
      const { merchant } = await newTenant();
      const job = jobId();
      const huge = `${'{"pad":"'.concat('x'.repeat(1000), '"}\n').repeat(Math.ceil(MAX_EXPORT_TRANSFER_BYTES / 1000) + 10)}`;
      // Act
      const empty = await upload(`merchant_id=${merchant.id}&job_id=${job}`, '');
      const tooLarge = await upload(`merchant_id=${merchant.id}&job_id=${job}`, huge);
      // Assess
      expect(empty.status).toBe(400);
      expect(empty.body.error).toMatchObject({ code: 'invalid_request', param: 'body' });
      expect(tooLarge.status).toBe(400);
      expect(tooLarge.body.error?.code).toBe('invalid_request');
      expect(await new FilesystemExportStore(EXPORTS_DIR).head(merchant.id, job)).toBeUndefined();
    });

    it('takes a body larger than the 256 KB of other routes', async () => {
      // Prepare
      const { merchant } = await newTenant();
      const body = '{"pad":"'.concat('y'.repeat(1000), '"}\n').repeat(400);
      // Act
      const response = await upload(`merchant_id=${merchant.id}&job_id=${jobId()}`, body);
      // Assess
      expect(response.status).toBe(201);
      expect(response.body.data.size).toBe(Buffer.byteLength(body));
    });
  });

  describe('GET /internal/exports/{merchantId}/{jobId}', () => {
    it('answers the file with its content type, length and a file name', async () => {
      // Prepare
      const { merchant } = await newTenant();
      const job = jobId();
      await upload(`merchant_id=${merchant.id}&job_id=${job}`, 'a,b\n1,2\n', { 'Content-Type': 'text/csv' });
      // Act
      const response = await download(merchant.id, job);
      // Assess
      expect(response.status).toBe(200);
      expect(response.text).toBe('a,b\n1,2\n');
      expect(response.headers.get('content-type')).toBe('text/csv');
      expect(response.headers.get('content-length')).toBe('8');
      expect(response.headers.get('content-disposition')).toBe(`attachment; filename="${job}.csv"`);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('cache-control')).toBe('no-store');
    });

    it("answers 404 for another merchant's job id", async () => {
      // Prepare
      const owner = await newTenant();
      const other = await newTenant();
      const job = jobId();
      await upload(`merchant_id=${owner.merchant.id}&job_id=${job}`, LINES);
      // Act
      const response = await download(other.merchant.id, job);
      // Assess
      expect(response.status).toBe(404);
      expect(response.body.error).toMatchObject({ code: 'resource_not_found', param: 'jobId' });
      expect(response.text).not.toContain('note');
    });

    it.each([
      ['missing', {}],
      ['wrong', cronAuth('wrong-secret-0123456789')],
    ])('refuses a %s cron secret with 401', async (_case, headers) => {
      // Prepare
      const { merchant } = await newTenant();
      const job = jobId();
      await upload(`merchant_id=${merchant.id}&job_id=${job}`, LINES);
      // Act
      const response = await download(merchant.id, job, headers);
      // Assess
      expect(response.status).toBe(401);
      expect(response.body.error?.code).toBe('invalid_api_key');
      expect(response.text).not.toContain('note');
    });

    it.each([
      ['an unknown job', 'merch_x', 'job_unknown'],
      ['a job id climbing out', 'merch_x', '../../../etc/passwd'],
      ['a merchant id climbing out', '../other', 'job'],
      ['a 10 KB job id', 'merch_x', 'k'.repeat(10_240)],
      ['__proto__', '__proto__', '__proto__'],
    ])('answers 404 with the envelope for %s', async (_case, merchantId, job) => {
      // Act
      const response = await download(merchantId, job);
      // Assess
      expect(response.status).toBe(404);
      expect(response.body.error?.code).toBe('resource_not_found');
    });
  });

  describe('the merchant data export job', () => {
    it("writes the merchant's customers, payments and recoveries as JSON lines, and nothing of another merchant", async () => {
      // Prepare
      const { merchant } = await newTenant();
      const other = await newTenant();
      const first = await seedPayment(merchant.id, { amount: 1250, currency: 'eur', customer: { email: 'ada@example.com', name: 'Ada' } });
      const second = await moveThrough(
        merchant.id,
        await seedPayment(merchant.id, { amount: 3000, currency: 'jpy', customer: { email: 'bob@example.com', name: 'Bob' } }),
        ['pause'],
      );
      const foreign = await seedPayment(other.merchant.id, { amount: 777, customer: { email: 'eve@example.com', name: 'Eve' } });
      // Act
      const job = await exportMerchantData(merchant.id);
      const response = await download(merchant.id, job.id);
      // Assess
      expect(job).toMatchObject({
        state: 'succeeded',
        counts: { customers: 2, payments: 2, recoveries: 2 },
        error: null,
        content_type: 'application/x-ndjson',
      });
      expect(job.location).toBe(join(EXPORTS_DIR, merchant.id, `${job.id}.data`));
      expect(await getExportJob(merchant.id, job.id)).toEqual(job);
      expect(await getExportJob(other.merchant.id, job.id)).toBeUndefined();
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/x-ndjson');
      expect(Number(response.headers.get('content-length'))).toBe(job.size);
      const lines = response.text.split('\n');
      expect(lines.pop()).toBe('');
      const objects = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(objects.map((object) => object.object)).toEqual(['customer', 'customer', 'payment', 'recovery', 'payment', 'recovery']);
      expect(objects.filter((object) => object.object === 'customer').map((object) => object.email)).toEqual(['ada@example.com', 'bob@example.com']);
      expect(objects[2]).toMatchObject({ id: first.id, recovery_id: first.recovery_id, amount: 1250, currency: 'eur', status: first.status });
      expect(objects[3]).toMatchObject({ id: first.recovery_id, payment_event_id: first.id, amount: 1250, currency: 'eur' });
      expect(objects[4]).toMatchObject({ id: second.id, amount: 3000, currency: 'jpy', status: 'paused' });
      expect(objects[5]).toMatchObject({ id: second.recovery_id, status: 'paused', paused_at: second.paused_at });
      for (const object of objects) {
        expect(object).not.toHaveProperty('card_identity');
        expect(object).not.toHaveProperty('attempt');
        expect(object).not.toHaveProperty('version');
        expect(object).not.toHaveProperty('PK');
      }
      expect(response.text).not.toContain(other.merchant.id);
      expect(response.text).not.toContain(foreign.id);
      expect(response.text).not.toContain('eve@example.com');
    });

    it('writes an empty file for a merchant with no data', async () => {
      // Prepare
      const { merchant } = await newTenant();
      // Act
      const job = await exportMerchantData(merchant.id);
      // Assess
      expect(job).toMatchObject({ state: 'succeeded', counts: { customers: 0, payments: 0, recoveries: 0 }, size: 0 });
      expect((await download(merchant.id, job.id)).text).toBe('');
    });

    it('records the job failed, with a reason that leaks nothing, when the store cannot write', async () => {
      // Prepare
      const { merchant } = await newTenant();
      await seedPayment(merchant.id);
      const notADirectory = join(EXPORTS_DIR, `plain-file-${jobId()}`);
      writeFileSync(notADirectory, 'not a directory');
      // Act
      const job = await exportMerchantData(merchant.id, { store: new FilesystemExportStore(notADirectory) });
      // Assess
      expect(job).toMatchObject({ state: 'failed', location: null, size: 0, error: 'The export could not be written; see the logs for the job id.' });
      expect(job.finished_at).not.toBeNull();
      expect(await getExportJob(merchant.id, job.id)).toMatchObject({ state: 'failed' });
      expect((await download(merchant.id, job.id)).status).toBe(404);
    });
  });
});
