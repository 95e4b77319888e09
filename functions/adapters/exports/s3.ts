import type { S3Client } from '@aws-sdk/client-s3';
import { StateConflictError } from '#core/errors';
import { EXPORTS_PREFIX } from '#contracts/exports';
import { checkExportSegments, type ExportFile, type ExportStore, type StoredExport } from '#core/exports';

type Sdk = typeof import('@aws-sdk/client-s3');

/** Where the files are: the bucket, and (tests, S3-compatible stores) an endpoint to reach it at. */
export interface S3ExportLocation {
  readonly bucket: string;
  readonly region: string;
  readonly endpoint?: string | undefined;
}

const statusOf = (error: unknown): number | undefined => (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;

async function collect(content: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of content) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

/**
 * The AWS `ExportStore`: one object per file, `exports/<merchant id>/<job id>`, in a bucket that is
 * encrypted, private, TLS-only and expires exports after 7 days (lib/constructs/export-bucket.ts).
 * A put is create-only (`If-None-Match: *`: S3 answers 412 when the object exists). A streamed
 * put is gathered in memory first (one PutObject, up to S3's 5 GB; the export job's files stay far
 * below a function's memory at this service's volumes).
 */
export class S3ExportStore implements ExportStore {
  readonly name = 's3';
  private connection: Promise<{ sdk: Sdk; client: S3Client }> | undefined;

  constructor(private readonly where: S3ExportLocation) {}

  /** The SDK, loaded on first use, so that a function that never exports loads no S3 code. */
  private connect(): Promise<{ sdk: Sdk; client: S3Client }> {
    const { region, endpoint } = this.where;
    this.connection ??= import('@aws-sdk/client-s3').then((sdk) => ({
      sdk,
      client: new sdk.S3Client({
        region,
        ...(endpoint === undefined
          ? {}
          : { endpoint, forcePathStyle: true, requestChecksumCalculation: 'WHEN_REQUIRED', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }),
      }),
    }));
    return this.connection;
  }

  private key(merchantId: string, jobId: string): string {
    checkExportSegments(merchantId, jobId);
    return `${EXPORTS_PREFIX}${merchantId}/${jobId}`;
  }

  location(merchantId: string, jobId: string): string {
    return `s3://${this.where.bucket}/${this.key(merchantId, jobId)}`;
  }

  async put(merchantId: string, jobId: string, content: Buffer | AsyncIterable<Uint8Array>, contentType: string): Promise<StoredExport> {
    const key = this.key(merchantId, jobId);
    const body = Buffer.isBuffer(content) ? content : await collect(content);
    const { sdk, client } = await this.connect();
    try {
      await client.send(new sdk.PutObjectCommand({ Bucket: this.where.bucket, Key: key, Body: body, ContentType: contentType, IfNoneMatch: '*' }));
    } catch (error) {
      // 412: the object exists; 409: a concurrent conditional write to it is in progress.
      if (statusOf(error) === 412 || statusOf(error) === 409) {
        throw new StateConflictError('An export file already exists for this merchant and job.', { param: 'job_id' });
      }
      throw error;
    }
    return { location: this.location(merchantId, jobId), size: body.length };
  }

  async head(merchantId: string, jobId: string): Promise<{ contentType: string; size: number } | undefined> {
    const key = this.key(merchantId, jobId);
    const { sdk, client } = await this.connect();
    try {
      const head = await client.send(new sdk.HeadObjectCommand({ Bucket: this.where.bucket, Key: key }));
      return { contentType: head.ContentType ?? 'application/octet-stream', size: head.ContentLength ?? 0 };
    } catch (error) {
      if (statusOf(error) === 404) return undefined;
      throw error;
    }
  }

  async get(merchantId: string, jobId: string): Promise<ExportFile | undefined> {
    const key = this.key(merchantId, jobId);
    const { sdk, client } = await this.connect();
    try {
      const object = await client.send(new sdk.GetObjectCommand({ Bucket: this.where.bucket, Key: key }));
      const bytes = object.Body === undefined ? Buffer.alloc(0) : Buffer.from(await object.Body.transformToByteArray());
      return { contentType: object.ContentType ?? 'application/octet-stream', bytes };
    } catch (error) {
      if (statusOf(error) === 404) return undefined;
      throw error;
    }
  }
}
