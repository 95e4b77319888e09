import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { link, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { StateConflictError } from '#core/errors';
import { checkExportSegments, type ExportFile, type ExportStore, type StoredExport } from '#core/exports';

interface Meta {
  readonly content_type: string;
  readonly size: number;
}

const isCode = (error: unknown, code: string): boolean => (error as NodeJS.ErrnoException | undefined)?.code === code;

/**
 * The local `ExportStore`: `<root>/<merchant id>/<job id>.data` and its `.meta.json` (content type,
 * size). A put streams into a temporary file beside it and links it into place, which fails when
 * the file exists (create-only, atomic: a reader never sees half a file); the metadata is written
 * last, so a file without it is not yet there. Names are checked (core/exports.ts) and every path
 * is confirmed to stay under the root before it is touched.
 */
export class FilesystemExportStore implements ExportStore {
  readonly name = 'filesystem';
  private readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  private paths(merchantId: string, jobId: string): { dir: string; data: string; meta: string } {
    checkExportSegments(merchantId, jobId);
    const dir = join(this.root, merchantId);
    const data = join(dir, `${jobId}.data`);
    if (!data.startsWith(this.root + sep)) throw new Error('export path outside the exports directory');
    return { dir, data, meta: join(dir, `${jobId}.meta.json`) };
  }

  location(merchantId: string, jobId: string): string {
    return this.paths(merchantId, jobId).data;
  }

  async put(merchantId: string, jobId: string, content: Buffer | AsyncIterable<Uint8Array>, contentType: string): Promise<StoredExport> {
    const { dir, data, meta } = this.paths(merchantId, jobId);
    await mkdir(dir, { recursive: true });
    const temporary = join(dir, `.${jobId}.${randomBytes(6).toString('hex')}.tmp`);
    try {
      await pipeline(Buffer.isBuffer(content) ? Readable.from([content]) : Readable.from(content), createWriteStream(temporary, { flags: 'wx', mode: 0o600 }));
      try {
        await link(temporary, data);
      } catch (error) {
        if (isCode(error, 'EEXIST')) throw new StateConflictError('An export file already exists for this merchant and job.', { param: 'job_id' });
        throw error;
      }
    } finally {
      await rm(temporary, { force: true });
    }
    const { size } = await stat(data);
    await writeFile(meta, JSON.stringify({ content_type: contentType, size } satisfies Meta), { flag: 'wx', mode: 0o600 });
    return { location: data, size };
  }

  async head(merchantId: string, jobId: string): Promise<{ contentType: string; size: number } | undefined> {
    const { meta } = this.paths(merchantId, jobId);
    try {
      const parsed = JSON.parse(await readFile(meta, 'utf8')) as Meta;
      return { contentType: parsed.content_type, size: parsed.size };
    } catch (error) {
      if (isCode(error, 'ENOENT')) return undefined;
      throw error;
    }
  }

  async get(merchantId: string, jobId: string): Promise<ExportFile | undefined> {
    const head = await this.head(merchantId, jobId);
    if (head === undefined) return undefined;
    return { contentType: head.contentType, bytes: await readFile(this.paths(merchantId, jobId).data) };
  }
}
