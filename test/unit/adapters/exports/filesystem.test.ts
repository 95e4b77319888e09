import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FilesystemExportStore } from '#adapters/exports/filesystem';
import { StateConflictError, ValidationError } from '#core/errors';

async function* chunksOf(...parts: string[]): AsyncGenerator<Uint8Array> {
  for (const part of parts) yield Buffer.from(part, 'utf8');
}

describe('FilesystemExportStore', () => {
  const root = mkdtempSync(join(tmpdir(), 'exports-unit-'));
  const store = new FilesystemExportStore(root);

  it('streams a file into <root>/<merchant>/<job>.data, readable by its owner only, and reads it back', async () => {
    // Act
    const stored = await store.put('merch_a', 'exp_1', chunksOf('{"a":1}\n', '{"b":2}\n'), 'application/x-ndjson');
    // Assess
    expect(stored).toEqual({ location: join(root, 'merch_a', 'exp_1.data'), size: 16 });
    expect(statSync(stored.location).mode & 0o777).toBe(0o600);
    expect(await store.head('merch_a', 'exp_1')).toEqual({ contentType: 'application/x-ndjson', size: 16 });
    expect(await store.get('merch_a', 'exp_1')).toEqual({ contentType: 'application/x-ndjson', bytes: Buffer.from('{"a":1}\n{"b":2}\n') });
    expect(readdirSync(join(root, 'merch_a')).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('keeps one of two concurrent puts of one file and refuses the other with a StateConflictError', async () => {
    // Act
    const outcomes = await Promise.allSettled([
      store.put('merch_b', 'exp_2', Buffer.from('first'), 'text/plain'),
      store.put('merch_b', 'exp_2', Buffer.from('second'), 'text/plain'),
    ]);
    // Assess
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    const refused = outcomes.find((outcome) => outcome.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason).toBeInstanceOf(StateConflictError);
    expect(['first', 'second']).toContain((await store.get('merch_b', 'exp_2'))?.bytes.toString());
    expect(readdirSync(join(root, 'merch_b')).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('answers undefined for a file that is not there', async () => {
    // Act / Assess
    expect(await store.head('merch_c', 'exp_none')).toBeUndefined();
    expect(await store.get('merch_c', 'exp_none')).toBeUndefined();
  });

  it.each([
    ['..', 'exp'],
    ['merch_d', '..'],
    ['merch_d', '../../etc/passwd'],
    ['merch_d', 'a\\b'],
    ['merch_d', 'a.b'],
    ['', 'exp'],
    ['merch_d', 'j'.repeat(65)],
  ])('refuses merchant %j and job %j before touching the disk', async (merchantId, jobId) => {
    // Act / Assess
    await expect(store.put(merchantId, jobId, Buffer.from('x'), 'text/plain')).rejects.toBeInstanceOf(ValidationError);
    await expect(store.get(merchantId, jobId)).rejects.toBeInstanceOf(ValidationError);
    expect(readdirSync(root)).not.toContain('etc');
  });
});
