/**
 * The S3 exports adapter against a small S3 double on loopback (path-style, as S3-compatible
 * stores serve it): the real SDK client signs and sends PutObject (create-only, `If-None-Match:
 * *`), HeadObject and GetObject, and the double keeps objects in memory as S3 does, answering 412
 * to a conditional put over an existing object and 404 to a missing key.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { S3ExportStore } from '#adapters/exports/index';
import { StateConflictError, ValidationError } from '#core/errors';

interface StoredObject {
  readonly body: Buffer;
  readonly contentType: string;
}

interface SeenRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
}

function startS3Double(): Promise<{ server: Server; endpoint: string; objects: Map<string, StoredObject>; seen: SeenRequest[] }> {
  const objects = new Map<string, StoredObject>();
  const seen: SeenRequest[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = decodeURIComponent((request.url ?? '/').split('?')[0] ?? '/');
      seen.push({ method: request.method ?? '', path, headers: request.headers });
      const object = objects.get(path);
      if (request.method === 'PUT') {
        if (request.headers['if-none-match'] === '*' && object !== undefined) {
          response.writeHead(412, { 'Content-Type': 'application/xml' }).end('<Error><Code>PreconditionFailed</Code></Error>');
          return;
        }
        objects.set(path, { body: Buffer.concat(chunks), contentType: String(request.headers['content-type'] ?? '') });
        response.writeHead(200, { ETag: '"etag"' }).end();
        return;
      }
      if (object === undefined) {
        response.writeHead(404, { 'Content-Type': 'application/xml' }).end(request.method === 'HEAD' ? undefined : '<Error><Code>NoSuchKey</Code></Error>');
        return;
      }
      response.writeHead(200, { 'Content-Type': object.contentType, 'Content-Length': String(object.body.length) });
      response.end(request.method === 'HEAD' ? undefined : object.body);
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ server, endpoint: `http://127.0.0.1:${port}`, objects, seen });
    });
  });
}

async function* chunksOf(...parts: string[]): AsyncGenerator<Uint8Array> {
  for (const part of parts) yield Buffer.from(part, 'utf8');
}

describe('S3ExportStore', () => {
  let double: Awaited<ReturnType<typeof startS3Double>>;
  let store: S3ExportStore;

  beforeAll(async () => {
    double = await startS3Double();
    store = new S3ExportStore({ bucket: 'exports-bucket', region: 'us-east-1', endpoint: double.endpoint });
  });

  afterAll(async () => {
    await new Promise((done) => double.server.close(done));
  });

  it('puts a streamed file under exports/<merchant>/<job>, create-only, and reads it back', async () => {
    // Act
    const stored = await store.put('merch_a', 'exp_1', chunksOf('{"a":1}\n', '{"b":2}\n'), 'application/x-ndjson');
    const head = await store.head('merch_a', 'exp_1');
    const file = await store.get('merch_a', 'exp_1');
    // Assess
    expect(stored).toEqual({ location: 's3://exports-bucket/exports/merch_a/exp_1', size: 16 });
    expect(double.objects.get('/exports-bucket/exports/merch_a/exp_1')).toEqual({
      body: Buffer.from('{"a":1}\n{"b":2}\n'),
      contentType: 'application/x-ndjson',
    });
    const put = double.seen.find((request) => request.method === 'PUT');
    expect(put?.headers['if-none-match']).toBe('*');
    expect(put?.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 /);
    expect(head).toEqual({ contentType: 'application/x-ndjson', size: 16 });
    expect(file).toEqual({ contentType: 'application/x-ndjson', bytes: Buffer.from('{"a":1}\n{"b":2}\n') });
  });

  it('refuses to replace an existing file (S3 answers 412) with a StateConflictError', async () => {
    // Prepare
    await store.put('merch_b', 'exp_2', Buffer.from('first'), 'text/plain');
    // Act
    const second = store.put('merch_b', 'exp_2', Buffer.from('second'), 'text/plain');
    // Assess
    await expect(second).rejects.toBeInstanceOf(StateConflictError);
    expect(double.objects.get('/exports-bucket/exports/merch_b/exp_2')?.body.toString()).toBe('first');
  });

  it('answers undefined for a file that is not there', async () => {
    // Act
    const [head, file] = await Promise.all([store.head('merch_c', 'exp_missing'), store.get('merch_c', 'exp_missing')]);
    // Assess
    expect(head).toBeUndefined();
    expect(file).toBeUndefined();
  });

  it.each([
    ['a merchant id climbing out', '..', 'exp_3'],
    ['a job id with a slash', 'merch_d', 'a/b'],
    ['a job id of 65 characters', 'merch_d', 'x'.repeat(65)],
    ['an empty job id', 'merch_d', ''],
  ])('refuses %s before any request is sent', async (_case, merchantId, jobId) => {
    // Prepare
    const before = double.seen.length;
    // Act
    const put = store.put(merchantId, jobId, Buffer.from('x'), 'text/plain');
    // Assess
    await expect(put).rejects.toBeInstanceOf(ValidationError);
    expect(() => store.location(merchantId, jobId)).toThrow(ValidationError);
    expect(double.seen.length).toBe(before);
  });
});
