// The embedded mail catcher's process (lib/local/mail-catcher.ts starts it): maildev is ESM only,
// and runs here, on its own, so that any loader (tsx, jest's CommonJS) can start it. Argv: SMTP
// port, web port, bind address. Prints one line `MAILCATCHER {"smtp":…,"web":…}` once both listen.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MailDev } from 'maildev';

const [smtp, web, ip] = process.argv.slice(2);
// A folder of its own: maildev's default (/tmp/maildev) would be shared by every stack on the machine.
const mailDirectory = mkdtempSync(join(tmpdir(), 'recovery-mail-'));
const maildev = new MailDev({
  smtp: Number(smtp),
  web: Number(web),
  ip,
  webIp: ip,
  silent: true,
  mailDirectory,
  log: { verbose: false, silent: true, logMailContents: false },
});
try {
  const servers = await maildev.start();
  const webPort = servers.api?.boundAddress?.port ?? Number(web);
  process.stdout.write(`MAILCATCHER ${JSON.stringify({ smtp: servers.smtp.port, web: webPort })}\n`);
} catch (error) {
  process.stdout.write(`MAILCATCHER_ERROR ${JSON.stringify({ code: error?.code ?? null, message: String(error?.message ?? error) })}\n`);
  process.exit(1);
}
const stop = () => {
  maildev.stop().finally(() => {
    rmSync(mailDirectory, { recursive: true, force: true });
    process.exit(0);
  });
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
// The parent's end is ours too.
process.stdin.on('end', stop);
process.stdin.resume();
