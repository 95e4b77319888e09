/**
 * `npm run --silent job -- <name> [--at <ISO time>]`: runs one scheduled job (every-minute,
 * hourly, daily) once, against the DynamoDB of the running local stack, and prints its JobReport as
 * JSON on stdout. With `--at`, the run is the one the schedule would make at that time (the
 * retry engine takes the scheduled time as its clock): a retry planned for tomorrow runs now.
 * Logs go to stderr. Messages the job enqueues are delivered in this process to the same
 * consumer handlers the stack runs, before it exits.
 *
 * DYNAMODB_ENDPOINT and TABLE_NAME come from the environment, else from `.local/stack.json`
 * (`dynamodb_endpoint`, `table_name`), written by `npm start`; against the stack's table, the
 * retry engine's default gateway is the stack's (`default_payment_gateway`, sandbox unless
 * DEFAULT_PAYMENT_GATEWAY says otherwise), as if the stack's own scheduler ran the job.
 *
 * Exit codes: 0 report printed, no task failed; 1 a task failed or the job could not run;
 * 2 bad arguments.
 */
import type { JobHandler } from '#jobs/run-job';
import { type ScheduleName, scheduleDefinitions } from '#contracts/schedules';
import { stackFilePath, useLocalStackEnvironment } from '#lib/local/stack-file';

// Explicit imports (not a path built from the argument) so tsc checks each one and only a
// known name ever loads code.
const jobModules: Record<ScheduleName, () => Promise<{ handler: JobHandler }>> = {
  'every-minute': () => import('#jobs/every-minute'),
  hourly: () => import('#jobs/hourly'),
  daily: () => import('#jobs/daily'),
};

function exit(code: number, stream: NodeJS.WriteStream, text: string): void {
  stream.write(`${text}\n`, () => process.exit(code));
}

/** Must run before anything imports functions/shared/env.ts, which reads the environment once. */
function configureEnvironment(): void {
  useLocalStackEnvironment();
  const missing = ['DYNAMODB_ENDPOINT', 'TABLE_NAME'].filter((name) => process.env[name] === undefined);
  if (missing.length > 0) {
    throw new Error(`no local stack found (${missing.join(', ')} unset and not in ${stackFilePath()}): start it with \`npm start\` or set them`);
  }
  process.env.QUEUE_DRIVER ??= 'local';
  // stdout carries the report and stderr the job's JSON logs; the SDK's notice that future
  // releases will need Node 22 (which Lambda already runs) is neither.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
}

/** `--at <ISO time>` (or `--at=<ISO time>`) anywhere in the arguments; the rest are positionals. */
function splitAt(args: readonly string[]): { positionals: string[]; at?: string } {
  const positionals: string[] = [];
  let at: string | undefined;
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i] as string;
    if (arg === '--at') {
      at = args[i + 1] ?? '';
      i += 1;
    } else if (arg.startsWith('--at=')) {
      at = arg.slice('--at='.length);
    } else {
      positionals.push(arg);
    }
  }
  return at === undefined ? { positionals } : { positionals, at };
}

async function main(rawArgs: readonly string[]): Promise<void> {
  const names = scheduleDefinitions.map((definition) => definition.name);
  const usage = `(usage: npm run job -- <${names.join('|')}> [--at <ISO time>])`;
  const { positionals: args, at } = splitAt(rawArgs);
  const name = names.find((candidate) => candidate === args[0]);
  if (args.length !== 1 || name === undefined) {
    const given =
      args[0] === undefined ? 'no job name given' : args.length > 1 ? `one job name expected, got ${args.length} arguments` : `unknown job "${args[0]}"`;
    return exit(2, process.stderr, `job: ${given} ${usage}`);
  }
  // --at: the run EventBridge Scheduler would make at that time (the retry engine's "now"), to
  // watch what a later run does without waiting for it.
  // Rounded up to the whole second: scheduled times have no milliseconds, and a retry due at
  // 09:00:00.354 must be due in the run "at" that time.
  const atMs = at === undefined ? undefined : Math.ceil(Date.parse(at) / 1000) * 1000;
  if (at !== undefined && (!/^\d{4}-\d{2}-\d{2}T/.test(at) || !Number.isFinite(atMs))) {
    return exit(2, process.stderr, `job: --at must be an ISO 8601 time such as 2026-12-01T09:00:00Z, not "${at}" ${usage}`);
  }

  configureEnvironment();
  const [{ LocalScheduler }, { LocalQueues }, { saveLocalDeadLetter }, { logger }, job, inbound, outbound, notifications] = await Promise.all([
    import('#lib/local/scheduler'),
    import('#lib/local/queue-hub'),
    import('#adapters/dead-letters/local'),
    import('#shared/logger'),
    jobModules[name](),
    import('#consumers/inbound-webhooks'),
    import('#consumers/outbound-deliveries'),
    import('#consumers/notifications'),
  ]);
  const queues = new LocalQueues({
    region: process.env.AWS_REGION,
    consumers: { 'inbound-webhooks': inbound.handler, 'outbound-deliveries': outbound.handler, notifications: notifications.handler },
    onDeadLetter: (queue, letter) => saveLocalDeadLetter(queue, letter),
  });
  const scheduler = new LocalScheduler({
    handlers: { [name]: job.handler },
    region: process.env.AWS_REGION,
    ...(atMs === undefined ? {} : { now: () => atMs }),
  });
  const report = await scheduler.runNow(name);
  const delivery = await queues.drain();
  const left = (['inbound-webhooks', 'outbound-deliveries', 'notifications'] as const).reduce(
    (sum, queue) => sum + queues.depth(queue) + queues.inFlight(queue),
    0,
  );
  if (delivery.delivered > 0 || left > 0) logger.info('queued messages delivered', { ...delivery, left_undelivered: left });
  const failed = report.tasks.some((task) => task.status === 'failed');
  exit(failed ? 1 : 0, process.stdout, JSON.stringify(report, null, 2));
}

main(process.argv.slice(2)).catch((error: unknown) => {
  exit(1, process.stderr, `job: ${error instanceof Error ? error.message : String(error)}`);
});
