import type { Context } from 'aws-lambda';
import type { JobReport } from '#jobs/run-job';
import type { ScheduledJobEvent, ScheduleName } from '#contracts/schedules';
import { LocalScheduler, type LocalJobHandler } from '#lib/local/scheduler';

const at = (iso: string): number => Date.parse(iso);

/** Handlers for every schedule that record their calls and answer an empty report. */
function spyHandlers() {
  const calls: { event: ScheduledJobEvent; context: Context }[] = [];
  const handler: LocalJobHandler = async (event, context) => {
    calls.push({ event, context });
    return { schedule: event.schedule, scheduled_time: event.scheduled_time, tasks: [] } satisfies JobReport;
  };
  const handlers: Record<ScheduleName, LocalJobHandler> = { 'every-minute': handler, hourly: handler, daily: handler };
  return { calls, handlers };
}

function setup(startIso: string) {
  const clock = { now: at(startIso) };
  const { calls, handlers } = spyHandlers();
  const scheduler = new LocalScheduler({ handlers, now: () => clock.now, region: 'eu-west-1' });
  const fired = () => calls.map(({ event }) => `${event.schedule}@${event.scheduled_time}`);
  return { clock, calls, scheduler, fired };
}

describe('LocalScheduler', () => {
  afterEach(() => jest.useRealTimers());

  it('fires every minute, hourly and daily when 08:00 UTC comes', async () => {
    // Prepare
    const { scheduler, fired } = setup('2030-01-01T07:59:30Z');

    // Act
    const runs = await scheduler.runDue(at('2030-01-01T08:00:00Z'));

    // Assess
    expect(fired()).toEqual(['every-minute@2030-01-01T08:00:00Z', 'hourly@2030-01-01T08:00:00Z', 'daily@2030-01-01T08:00:00Z']);
    expect(runs.map((run) => run.report?.schedule)).toEqual(['every-minute', 'hourly', 'daily']);
  });

  it('fires only the every-minute job when a minute passes inside an hour', async () => {
    // Prepare
    const { scheduler, fired } = setup('2030-01-01T08:00:05Z');

    // Act
    await scheduler.runDue(at('2030-01-01T08:01:00.250Z'));

    // Assess
    expect(fired()).toEqual(['every-minute@2030-01-01T08:01:00Z']);
  });

  it('fires hourly but not daily when an hour other than 08:00 UTC comes', async () => {
    // Prepare
    const { scheduler, fired } = setup('2030-01-01T23:59:59Z');

    // Act
    await scheduler.runDue(at('2030-01-02T00:00:00Z'));
    await scheduler.runDue(at('2030-01-02T07:00:00Z'));

    // Assess
    expect(fired()).not.toContainEqual(expect.stringMatching(/^daily@/));
    expect(fired()).toEqual(expect.arrayContaining(['hourly@2030-01-02T00:00:00Z', 'hourly@2030-01-02T07:00:00Z']));
  });

  it('fires a slot once when it ticks again inside the same minute', async () => {
    // Prepare
    const { scheduler, fired } = setup('2030-01-01T08:00:30Z');
    await scheduler.runDue(at('2030-01-01T08:01:05Z'));

    // Act
    const again = await scheduler.runDue(at('2030-01-01T08:01:55Z'));
    const same = scheduler.tick(at('2030-01-01T08:01:55Z'));

    // Assess
    expect(again).toEqual([]);
    expect(same).toEqual([]);
    expect(fired()).toEqual(['every-minute@2030-01-01T08:01:00Z']);
  });

  it('fires missed slots once, as the latest, when ticks were missed', async () => {
    // Prepare
    const { scheduler, fired } = setup('2030-01-01T05:30:00Z');

    // Act
    await scheduler.runDue(at('2030-01-01T09:12:40Z'));

    // Assess
    expect(fired()).toEqual(['every-minute@2030-01-01T09:12:00Z', 'hourly@2030-01-01T09:00:00Z', 'daily@2030-01-01T08:00:00Z']);
  });

  it('sends the event EventBridge Scheduler sends when it fires a job', async () => {
    // Prepare
    const { scheduler, calls } = setup('2030-01-01T07:59:59Z');

    // Act
    await scheduler.runDue(at('2030-01-01T08:00:00Z'));

    // Assess
    const daily = calls.find(({ event }) => event.schedule === 'daily');
    expect(daily?.event).toEqual({
      schedule: 'daily',
      scheduled_time: '2030-01-01T08:00:00Z',
      execution_id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      attempt_number: 1,
      schedule_arn: 'arn:aws:scheduler:eu-west-1:000000000000:schedule/default/daily',
    });
    expect(new Set(calls.map(({ event }) => event.execution_id)).size).toBe(3);
    expect(daily?.context.getRemainingTimeInMillis()).toBeGreaterThan(0);
  });

  it('records the error and runs the other jobs when a handler throws', async () => {
    // Prepare
    const { calls, handlers } = spyHandlers();
    const scheduler = new LocalScheduler({
      handlers: { ...handlers, hourly: async () => Promise.reject(new Error('table missing')) },
      now: () => at('2030-01-01T08:59:00Z'),
    });

    // Act
    const runs = await scheduler.runDue(at('2030-01-01T09:00:00Z'));

    // Assess
    expect(runs.find((run) => run.event.schedule === 'hourly')?.error).toEqual({ name: 'Error', message: 'table missing' });
    expect(calls.map(({ event }) => event.schedule)).toEqual(['every-minute']);
  });

  it('returns the report when it runs one job now', async () => {
    // Prepare
    const { scheduler, calls } = setup('2030-03-04T10:20:30.456Z');

    // Act
    const report = await scheduler.runNow('hourly');

    // Assess
    expect(report).toEqual({ schedule: 'hourly', scheduled_time: '2030-03-04T10:20:30Z', tasks: [] });
    expect(calls).toHaveLength(1);
  });

  it('fires on the minute with real timers and waits for running jobs when stopped', async () => {
    // Prepare
    jest.useFakeTimers({ now: at('2030-01-01T07:59:59.500Z') });
    let release: () => void = () => undefined;
    const started: string[] = [];
    let finished = false;
    const slow: LocalJobHandler = async (event) => {
      started.push(`${event.schedule}@${event.scheduled_time}`);
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      finished = true;
      return { schedule: event.schedule, scheduled_time: event.scheduled_time, tasks: [] };
    };
    const scheduler = new LocalScheduler({ handlers: { daily: slow } });
    scheduler.start();

    // Act
    await jest.advanceTimersByTimeAsync(499);
    const beforeEight = [...started];
    await jest.advanceTimersByTimeAsync(1);
    let stoppedEarly = false;
    const stopped = scheduler.stop().then(() => {
      stoppedEarly = !finished;
    });
    await jest.advanceTimersByTimeAsync(10);
    release();
    await stopped;

    // Assess
    expect(beforeEight).toEqual([]);
    expect(started).toEqual(['daily@2030-01-01T08:00:00Z']);
    expect(finished).toBe(true);
    expect(stoppedEarly).toBe(false);
  });
});
