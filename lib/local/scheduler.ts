import { randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';
import type { JobReport } from '#jobs/run-job';
import { type ScheduleDefinition, type ScheduledJobEvent, type ScheduleName, scheduleDefinitions } from '#contracts/schedules';
import { type Logger, logger as defaultLogger } from '#shared/logger';
import { createLambdaContext } from './lambda-context';

/**
 * EventBridge Scheduler for the local stack: invokes each job handler at its cadence in UTC
 * (every minute on the minute, hourly on the hour, daily at `atUtcHour`) with the event the
 * schedule's Input template gives on AWS. A slot fires at most once; after a pause (a sleeping
 * laptop, a slow job) the missed slots of a schedule fire once, as its latest slot, not one by one.
 *
 * @example
 * const scheduler = new LocalScheduler({ handlers: { 'every-minute': everyMinute.handler } });
 * scheduler.start();
 * await scheduler.runNow('every-minute');
 */
export type LocalJobHandler = (event: ScheduledJobEvent, context: Context) => Promise<JobReport>;

export interface LocalSchedulerOptions {
  readonly handlers: Readonly<Partial<Record<ScheduleName, LocalJobHandler>>>;
  /** Milliseconds since the epoch; slots due up to the construction time never fire. @default Date.now */
  readonly now?: () => number;
  /** @default 'us-east-1' */
  readonly region?: string;
  /** @default scheduleDefinitions */
  readonly definitions?: readonly ScheduleDefinition[];
  readonly logger?: Logger;
}

export interface JobRun {
  readonly event: ScheduledJobEvent;
  readonly report?: JobReport;
  readonly error?: { readonly name: string; readonly message: string };
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** The timeout a job Lambda gets. */
const JOB_TIMEOUT_MS = 5 * MINUTE;

/** The latest slot of a cadence at or before `at`. */
export function latestSlot(every: ScheduleDefinition['every'], at: number): number {
  if (every.unit === 'minute') return Math.floor(at / MINUTE) * MINUTE;
  if (every.unit === 'hour') return Math.floor(at / HOUR) * HOUR;
  const day = Math.floor(at / DAY) * DAY;
  const slot = day + (every.atUtcHour ?? 0) * HOUR;
  return slot <= at ? slot : slot - DAY;
}

/** The first slot of a cadence after `at`. */
export function nextSlot(every: ScheduleDefinition['every'], at: number): number {
  const period = every.unit === 'minute' ? MINUTE : every.unit === 'hour' ? HOUR : DAY;
  return latestSlot(every, at) + period;
}

/** ISO 8601 to the second, as `<aws.scheduler.scheduled-time>` gives it. */
const isoSeconds = (at: number): string => new Date(Math.floor(at / 1000) * 1000).toISOString().replace('.000Z', 'Z');

export class LocalScheduler {
  private readonly handlers: Readonly<Partial<Record<ScheduleName, LocalJobHandler>>>;
  private readonly definitions: readonly ScheduleDefinition[];
  private readonly now: () => number;
  private readonly region: string;
  private readonly logger: Logger;
  private readonly running = new Set<Promise<JobRun>>();
  private lastTick: number;
  private timer: NodeJS.Timeout | undefined;

  constructor(options: LocalSchedulerOptions) {
    this.handlers = options.handlers;
    this.definitions = options.definitions ?? scheduleDefinitions;
    this.now = options.now ?? Date.now;
    this.region = options.region ?? 'us-east-1';
    this.logger = options.logger ?? defaultLogger;
    for (const name of Object.keys(this.handlers)) {
      if (!this.definitions.some((definition) => definition.name === name)) throw new Error(`Unknown schedule "${name}"`);
    }
    this.lastTick = this.now();
  }

  /** The event the Scheduler sends for one run of `schedule` scheduled at `at`. */
  event(schedule: ScheduleName, at: number): ScheduledJobEvent {
    return {
      schedule,
      scheduled_time: isoSeconds(at),
      execution_id: randomUUID(),
      attempt_number: 1,
      schedule_arn: `arn:aws:scheduler:${this.region}:000000000000:schedule/default/${schedule}`,
    };
  }

  /** Starts every schedule with a slot in (last tick, now] and returns their events without waiting. */
  tick(now = this.now()): ScheduledJobEvent[] {
    return this.fireDue(now).map((run) => run.event);
  }

  /** Like `tick`, and waits for the runs it started. */
  async runDue(now = this.now()): Promise<JobRun[]> {
    return Promise.all(this.fireDue(now).map((run) => run.done));
  }

  /** Runs one job once, scheduled now, and returns its report (a handler error is thrown). */
  async runNow(schedule: ScheduleName): Promise<JobReport> {
    return this.handlerOf(schedule)(this.event(schedule, this.now()), this.context(schedule));
  }

  start(): void {
    if (this.timer !== undefined) return;
    this.lastTick = Math.max(this.lastTick, this.now());
    this.arm();
  }

  /** Stops the timer; resolves once the runs already started have finished. */
  async stop(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await Promise.allSettled([...this.running]);
  }

  private arm(): void {
    const scheduled = this.scheduled();
    if (scheduled.length === 0) return;
    const now = this.now();
    const next = Math.min(...scheduled.map((definition) => nextSlot(definition.every, now)));
    this.timer = setTimeout(
      () => {
        this.tick();
        if (this.timer !== undefined) this.arm();
      },
      Math.max(0, next - now),
    );
    this.timer.unref();
  }

  private scheduled(): ScheduleDefinition[] {
    return this.definitions.filter((definition) => this.handlers[definition.name] !== undefined);
  }

  private handlerOf(schedule: ScheduleName): LocalJobHandler {
    const handler = this.handlers[schedule];
    if (handler === undefined) throw new Error(`No handler for schedule "${schedule}"`);
    return handler;
  }

  private context(schedule: ScheduleName): Context {
    return createLambdaContext(`local-${schedule}-job`, JOB_TIMEOUT_MS);
  }

  private fireDue(now: number): { event: ScheduledJobEvent; done: Promise<JobRun> }[] {
    if (now <= this.lastTick) return [];
    const since = this.lastTick;
    this.lastTick = now;
    return this.scheduled()
      .map((definition) => ({ definition, slot: latestSlot(definition.every, now) }))
      .filter(({ slot }) => slot > since)
      .map(({ definition, slot }) => {
        const event = this.event(definition.name, slot);
        return { event, done: this.track(this.run(event)) };
      });
  }

  private async run(event: ScheduledJobEvent): Promise<JobRun> {
    try {
      return { event, report: await this.handlerOf(event.schedule)(event, this.context(event.schedule)) };
    } catch (thrown) {
      const error = thrown instanceof Error ? { name: thrown.name, message: thrown.message } : { name: 'Error', message: String(thrown) };
      this.logger.error('scheduled job failed', { schedule: event.schedule, execution_id: event.execution_id, error });
      return { event, error };
    }
  }

  private track(run: Promise<JobRun>): Promise<JobRun> {
    this.running.add(run);
    void run.finally(() => this.running.delete(run));
    return run;
  }
}
