import { spawn } from 'node:child_process';
import { join } from 'node:path';

/** The embedded mail catcher: where the local stack delivers email (SMTP) and where a developer reads it (web UI and REST API). */
export interface MailCatcher {
  /** `smtp://127.0.0.1:<port>`, the `smtp` email driver's SMTP_URL. */
  readonly smtpUrl: string;
  /** The web UI (and its REST API: `GET /email`, `GET /email/:id`, `DELETE /email/all`). */
  readonly webUrl: string;
  stop(): Promise<void>;
}

export interface MailCatcherOptions {
  /** 0 picks a free port. @default MAIL_CATCHER_SMTP_PORT, else 1025 (a free one if 1025 is taken) */
  readonly smtpPort?: number;
  /** 0 picks a free port. @default MAIL_CATCHER_WEB_PORT, else 1080 (a free one if 1080 is taken) */
  readonly webPort?: number;
  /** @default '127.0.0.1' (loopback only) */
  readonly host?: string;
}

interface Started {
  readonly smtp: number;
  readonly web: number;
}

const portFromEnv = (name: string): number | undefined => {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0 || value > 65_535) throw new Error(`${name} must be a port number, not "${raw}"`);
  return value;
};

function launch(
  smtpPort: number,
  webPort: number,
  host: string,
): Promise<{ started: Started; stop: () => Promise<void> } | { error: string; code: string | null }> {
  const child = spawn(process.execPath, [join(__dirname, 'mail-catcher-process.mjs'), String(smtpPort), String(webPort), host], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const stop = (): Promise<void> =>
    new Promise((done) => {
      if (child.exitCode !== null || child.signalCode !== null) return done();
      const deadline = setTimeout(() => child.kill('SIGKILL'), 2_000);
      child.once('exit', () => {
        clearTimeout(deadline);
        done();
      });
      child.kill('SIGTERM');
    });
  return new Promise((resolve) => {
    let output = '';
    const timer = setTimeout(() => {
      void stop();
      resolve({ error: `the mail catcher did not start within 15 s: ${output}`, code: null });
    }, 15_000);
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const ready = /^MAILCATCHER (.+)$/m.exec(output);
      if (ready?.[1] !== undefined) {
        clearTimeout(timer);
        resolve({ started: JSON.parse(ready[1]) as Started, stop });
        return;
      }
      const failed = /^MAILCATCHER_ERROR (.+)$/m.exec(output);
      if (failed?.[1] !== undefined) {
        clearTimeout(timer);
        const { code, message } = JSON.parse(failed[1]) as { code: string | null; message: string };
        resolve({ error: message, code });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ error: `the mail catcher exited (${code}): ${output}`, code: null });
    });
  });
}

/**
 * Starts maildev (SMTP server + web UI, loopback only) in a child process of its own, since it
 * ships as ESM only. Ports: the options, else MAIL_CATCHER_SMTP_PORT / MAIL_CATCHER_WEB_PORT,
 * else 1025 / 1080; a default port already taken (another stack on the machine) falls back to a
 * free one, a port asked for explicitly does not.
 */
export async function startMailCatcher(options: MailCatcherOptions = {}): Promise<MailCatcher> {
  const host = options.host ?? '127.0.0.1';
  const smtpAsked = options.smtpPort ?? portFromEnv('MAIL_CATCHER_SMTP_PORT');
  const webAsked = options.webPort ?? portFromEnv('MAIL_CATCHER_WEB_PORT');
  let result = await launch(smtpAsked ?? 1025, webAsked ?? 1080, host);
  if ('error' in result && result.code === 'EADDRINUSE' && (smtpAsked === undefined || webAsked === undefined)) {
    result = await launch(smtpAsked ?? 0, webAsked ?? 0, host);
  }
  if ('error' in result) throw new Error(`Could not start the mail catcher: ${result.error}`);
  return { smtpUrl: `smtp://${host}:${result.started.smtp}`, webUrl: `http://${host}:${result.started.web}`, stop: result.stop };
}
