import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Webhook } from 'standardwebhooks';
import { freePort } from '#lib/local/dynamo-local';

const ROOT = resolve(__dirname, '..', '..', '..');
/** What `--import tsx` resolves to from the project folder (the scratch folder has no node_modules). */
const TSX_LOADER = pathToFileURL(join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;

interface Running {
  readonly child: ChildProcessWithoutNullStreams;
  readonly output: () => string;
}

/**
 * `npm start` as an operator runs it (`node --import tsx bin/local.ts`: one process, so a signal
 * reaches the stack's own handler, with no tsx parent relaying it), in a scratch folder so
 * .local/ lands there.
 */
async function start(cwd: string, port: number, dataDir: string): Promise<Running> {
  const { TABLE_NAME: _table, DYNAMODB_ENDPOINT: _endpoint, ...environment } = process.env;
  const child = spawn(process.execPath, ['--import', TSX_LOADER, join(ROOT, 'bin', 'local.ts')], {
    cwd,
    env: { ...environment, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 60_000;
  while (!output.includes('Demo API key:')) {
    if (child.exitCode !== null) throw new Error(`npm start exited early: ${output}`);
    if (Date.now() > deadline) throw new Error(`npm start did not get ready: ${output}`);
    await new Promise((done) => setTimeout(done, 100));
  }
  return { child, output: () => output };
}

async function stop(running: Running, signal: NodeJS.Signals): Promise<{ code: number | null; ms: number }> {
  const began = Date.now();
  const exited = new Promise<number | null>((done) => running.child.once('exit', (code) => done(code)));
  running.child.kill(signal);
  const code = await exited;
  return { code, ms: Date.now() - began };
}

const answers = async (url: string): Promise<boolean> => {
  try {
    await fetch(url, { signal: AbortSignal.timeout(1000) });
    return true;
  } catch {
    return false;
  }
};

describe('npm start (bin/local.ts)', () => {
  it('serves /health and /status with the printed key, stops within 5 s, and keeps data in DATA_DIR across restarts', async () => {
    // Prepare
    const cwd = mkdtempSync(join(tmpdir(), 'recovery-start-'));
    const dataDir = join(cwd, 'data');
    const port = await freePort();
    // A webhook receiver on loopback: the endpoint saved in the first run is tested in the second.
    const received: Array<{ headers: Record<string, string>; body: string }> = [];
    const receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        received.push({ headers: req.headers as Record<string, string>, body });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
    const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;

    // Act: first run
    const first = await start(cwd, port, dataDir);
    const stack = JSON.parse(readFileSync(join(cwd, '.local', 'stack.json'), 'utf8')) as Record<string, string>;
    const health = await fetch(`http://127.0.0.1:${port}/health`);
    const status = await fetch(`${stack.api_url}/status`, { headers: { Authorization: `Bearer ${stack.api_key}` } });
    const statusBody = (await status.json()) as { data: { merchant_id: string; authenticated: boolean } };
    const inbox = await fetch(`${stack.mail_catcher_url}/api/email`);
    const endpoint = (await (
      await fetch(`${stack.api_url}/webhooks/endpoints`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${stack.api_key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ url: receiverUrl }),
      })
    ).json()) as { data: { id: string; signing_secret: string } };
    const firstStop = await stop(first, 'SIGTERM');

    // Assess: first run
    expect(first.output()).toContain(`API base URL:  http://127.0.0.1:${port}/api/v1`);
    expect(first.output()).toContain(`Demo API key:  ${stack.api_key}`);
    expect(stack.api_url).toBe(`http://127.0.0.1:${port}/api/v1`);
    expect(stack.api_key).toMatch(/^rk_test_[0-9A-Za-z]{43,}$/);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    expect(statusBody.data).toMatchObject({ merchant_id: stack.merchant_id, authenticated: true });
    expect(firstStop.code).toBe(0);
    expect(firstStop.ms).toBeLessThan(5000);
    expect(await answers(stack.dynamodb_endpoint as string)).toBe(false);
    expect(await answers(`http://127.0.0.1:${port}/health`)).toBe(false);
    // The mail catcher: its web UI's URL printed and in the stack file, answering, stopped with the stack
    expect(first.output()).toContain(`Sent emails:   ${stack.mail_catcher_url} (mail catcher)`);
    expect(stack.mail_catcher_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(inbox.status).toBe(200);
    expect(await answers(stack.mail_catcher_url as string)).toBe(false);
    // What a script run against the stack (npm run job) sends its email with: the catcher's SMTP, links to this server.
    expect(stack.smtp_url).toMatch(/^smtp:\/\/127\.0\.0\.1:\d+$/);
    expect(stack.edge_url).toBe(`http://127.0.0.1:${port}`);
    expect(stack.unsubscribe_signing_secret).toMatch(/^[0-9a-f]{64}$/);
    // The CLI's CRM installation URLs carry states signed with the stack's key.
    expect(stack.crm_state_signing_secret).toMatch(/^[0-9a-f]{64}$/);

    // Act: second run on the same data folder
    const second = await start(cwd, port, dataDir);
    const again = JSON.parse(readFileSync(join(cwd, '.local', 'stack.json'), 'utf8')) as Record<string, string>;
    const statusAgain = await fetch(`${again.api_url}/status`, { headers: { Authorization: `Bearer ${stack.api_key}` } });
    const tested = await fetch(`${again.api_url}/webhooks/endpoints/${endpoint.data.id}/test`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${stack.api_key}` },
    });
    const secondStop = await stop(second, 'SIGINT');
    await new Promise<void>((done) => receiver.close(() => done()));

    // Assess: the merchant and key survived the restart
    expect(again.merchant_id).toBe(stack.merchant_id);
    expect(again.api_key).toBe(stack.api_key);
    // Unsubscribe links outlive the restart with the data.
    expect(again.unsubscribe_signing_secret).toBe(stack.unsubscribe_signing_secret);
    // So does an installation started before the restart.
    expect(again.crm_state_signing_secret).toBe(stack.crm_state_signing_secret);
    expect(((await statusAgain.json()) as { data: { merchant_name: string } }).data.merchant_name).toBe('Demo Merchant');
    // The sealed signing secret opens after the restart (its key is kept in DATA_DIR, mode 0600): the test event verifies.
    expect(((await tested.json()) as { data: { success: boolean } }).data.success).toBe(true);
    expect(received).toHaveLength(1);
    expect(() => new Webhook(endpoint.data.signing_secret).verify(received[0]?.body as string, received[0]?.headers as Record<string, string>)).not.toThrow();
    expect(statSync(join(dataDir, 'secret-box-key')).mode & 0o777).toBe(0o600);
    expect(secondStop.code).toBe(0);
    expect(secondStop.ms).toBeLessThan(5000);
  }, 120_000);
});
