import type { Context } from 'aws-lambda';
import * as z from '#shared/zod';
import { logger } from '#shared/logger';
import { type ScheduledJobEvent, type ScheduleName, scheduleDefinitions } from '#contracts/schedules';

export interface JobTaskInput {
  /** The time the run was scheduled for, not the time it started: reruns see the same `now`. */
  readonly now: Date;
  readonly executionId: string;
}

/** Counts and ids for the report and the logs (never whole records). */
export type JobTaskSummary = Readonly<Record<string, unknown>>;
export type JobTask = (input: JobTaskInput) => Promise<JobTaskSummary>;

export interface JobTaskReport {
  readonly name: string;
  readonly status: 'ok' | 'not_implemented' | 'failed';
  readonly summary?: JobTaskSummary;
  readonly error?: { readonly name: string; readonly message: string };
}

export interface JobReport {
  readonly schedule: ScheduleName;
  readonly scheduled_time: string;
  readonly tasks: readonly JobTaskReport[];
}

export type JobHandler = (event: ScheduledJobEvent, context?: Context) => Promise<JobReport>;

export class InvalidJobEventError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidJobEventError';
  }
}

const eventSchemaFor = (schedule: ScheduleName) =>
  z.object({
    schedule: z.literal(schedule),
    scheduled_time: z.iso.datetime({ offset: true }),
    execution_id: z.string().check(z.minLength(1)),
    // The Scheduler template inserts the attempt unquoted; a hand-written event may quote it.
    attempt_number: z.union([z.number().check(z.int(), z.positive()), z.string().check(z.regex(/^[1-9]\d*$/))]),
    schedule_arn: z.string().check(z.startsWith('arn:')),
  });

const errorFields = (error: unknown): { name: string; message: string } =>
  error instanceof Error ? { name: error.name, message: error.message } : { name: 'Error', message: String(error) };

/**
 * The Lambda handler of one schedule: runs the schedule's tasks (scheduleDefinitions) in order.
 * A task not in `tasks` is reported `not_implemented`; a task that throws is reported `failed`
 * and the next one still runs. The handler itself throws only on a malformed event, so that
 * a retry of the whole job never reruns tasks that succeeded. No Middy: the report is the
 * error handling and there is no response to map.
 */
export function createJobHandler(schedule: ScheduleName, tasks: Readonly<Partial<Record<string, JobTask>>>): JobHandler {
  const definition = scheduleDefinitions.find((candidate) => candidate.name === schedule);
  if (definition === undefined) throw new Error(`Unknown schedule "${schedule}"`);
  for (const name of Object.keys(tasks)) {
    if (!definition.tasks.includes(name)) throw new Error(`Task "${name}" is not a task of schedule "${schedule}"`);
  }
  const EventSchema = eventSchemaFor(schedule);

  return async (event) => {
    const parsed = EventSchema.safeParse(event);
    if (!parsed.success) {
      const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(event)'}: ${issue.message}`).join('; ');
      throw new InvalidJobEventError(`Invalid scheduled job event for "${schedule}": ${problems}`);
    }
    const { scheduled_time, execution_id: executionId } = parsed.data;
    const log = logger.child({ schedule, execution_id: executionId, scheduled_time });
    const input: JobTaskInput = { now: new Date(scheduled_time), executionId };
    log.info('job started', { attempt_number: Number(parsed.data.attempt_number) });

    const reports: JobTaskReport[] = [];
    for (const name of definition.tasks) {
      const task = Object.hasOwn(tasks, name) ? tasks[name] : undefined;
      if (task === undefined) {
        log.warn('task not implemented', { task: name });
        reports.push({ name, status: 'not_implemented' });
        continue;
      }
      const started = Date.now();
      try {
        const summary = await task(input);
        log.info('task finished', { task: name, duration_ms: Date.now() - started, summary });
        reports.push({ name, status: 'ok', summary });
      } catch (thrown) {
        const error = errorFields(thrown);
        log.error('task failed', { task: name, duration_ms: Date.now() - started, error });
        reports.push({ name, status: 'failed', error });
      }
    }

    const count = (status: JobTaskReport['status']): number => reports.filter((report) => report.status === status).length;
    log.info('job finished', { ok: count('ok'), not_implemented: count('not_implemented'), failed: count('failed') });
    return { schedule, scheduled_time, tasks: reports };
  };
}
