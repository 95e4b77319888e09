import { createJobHandler, InvalidJobEventError, type JobTaskInput } from '#jobs/run-job';
import { type ScheduledJobEvent, scheduleDefinitions, scheduledJobInputTemplate } from '#contracts/schedules';

const dailyTasks = scheduleDefinitions.find((definition) => definition.name === 'daily')?.tasks ?? [];

function dailyEvent(overrides: Partial<Record<keyof ScheduledJobEvent, unknown>> = {}): ScheduledJobEvent {
  return {
    schedule: 'daily',
    scheduled_time: '2030-01-01T08:00:00Z',
    execution_id: '0b9c6f4e-2a0e-4c51-9d43-4f0b1f7c2a11',
    attempt_number: 1,
    schedule_arn: 'arn:aws:scheduler:us-east-1:000000000000:schedule/default/daily',
    ...overrides,
  } as ScheduledJobEvent;
}

describe('createJobHandler', () => {
  afterEach(() => jest.restoreAllMocks());

  it('runs the given tasks in the order the schedule lists them', async () => {
    // Prepare
    const ran: string[] = [];
    const inputs: JobTaskInput[] = [];
    const task = (name: string) => async (input: JobTaskInput) => {
      ran.push(name);
      inputs.push(input);
      return { processed: name.length };
    };
    const handler = createJobHandler('daily', { 'retention-cleanup': task('retention-cleanup'), 'card-expiry-checks': task('card-expiry-checks') });

    // Act
    const report = await handler(dailyEvent());

    // Assess
    expect(ran).toEqual(['card-expiry-checks', 'retention-cleanup']);
    expect(report.schedule).toBe('daily');
    expect(report.scheduled_time).toBe('2030-01-01T08:00:00Z');
    expect(report.tasks.map((each) => each.name)).toEqual(dailyTasks);
    expect(report.tasks[0]).toEqual({ name: 'card-expiry-checks', status: 'ok', summary: { processed: 18 } });
    expect(inputs[0]).toEqual({ now: new Date(Date.UTC(2030, 0, 1, 8)), executionId: '0b9c6f4e-2a0e-4c51-9d43-4f0b1f7c2a11' });
  });

  it('reports a task as not_implemented when the handler has no function for it', async () => {
    // Prepare
    const handler = createJobHandler('hourly', { 'analytics-rollup': async () => ({ rollups: 3 }) });

    // Act
    const report = await handler(dailyEvent({ schedule: 'hourly', schedule_arn: 'arn:aws:scheduler:us-east-1:000000000000:schedule/default/hourly' }));

    // Assess
    expect(report.tasks).toEqual([
      { name: 'advance-campaign-steps', status: 'not_implemented' },
      { name: 'analytics-rollup', status: 'ok', summary: { rollups: 3 } },
    ]);
  });

  it('reports a throwing task as failed and still runs the tasks after it', async () => {
    // Prepare
    const after = jest.fn(async () => ({ sent: 0 }));
    const handler = createJobHandler('every-minute', {
      'flush-notifications': async () => {
        throw new TypeError('boom');
      },
      'execute-due-retries': after,
    });

    // Act
    const report = await handler(dailyEvent({ schedule: 'every-minute', scheduled_time: '2030-01-01T08:01:00Z' }));

    // Assess
    expect(report.tasks).toEqual([
      { name: 'flush-notifications', status: 'failed', error: { name: 'TypeError', message: 'boom' } },
      { name: 'execute-due-retries', status: 'ok', summary: { sent: 0 } },
      { name: 'dispatch-due-webhooks', status: 'not_implemented' },
      { name: 'check-custom-hostnames', status: 'not_implemented' },
    ]);
    expect(after).toHaveBeenCalledTimes(1);
  });

  it.each([
    ['a missing execution_id', { execution_id: undefined }],
    ['another schedule', { schedule: 'hourly' }],
    ['a scheduled_time that is not ISO 8601', { scheduled_time: 'yesterday' }],
    ['an attempt_number of zero', { attempt_number: 0 }],
    ['a schedule_arn that is not an ARN', { schedule_arn: 'daily' }],
  ])('rejects the event when it has %s', async (_case, overrides) => {
    // Prepare
    const task = jest.fn(async () => ({}));
    const handler = createJobHandler('daily', { 'card-expiry-checks': task });

    // Act
    const running = handler(dailyEvent(overrides));

    // Assess
    await expect(running).rejects.toBeInstanceOf(InvalidJobEventError);
    expect(task).not.toHaveBeenCalled();
  });

  it('accepts the event when EventBridge Scheduler fills the input template', async () => {
    // Prepare
    const input = scheduledJobInputTemplate('daily')
      .replace('<aws.scheduler.scheduled-time>', '2030-01-01T08:00:00Z')
      .replace('<aws.scheduler.execution-id>', 'd7e6f5a4-0000-4000-8000-000000000001')
      .replace('<aws.scheduler.attempt-number>', '2')
      .replace('<aws.scheduler.schedule-arn>', 'arn:aws:scheduler:eu-west-1:123456789012:schedule/default/daily');
    const handler = createJobHandler('daily', {});

    // Act
    const report = await handler(JSON.parse(input) as ScheduledJobEvent);

    // Assess
    expect(report.tasks.every((task) => task.status === 'not_implemented')).toBe(true);
    expect(report.tasks).toHaveLength(dailyTasks.length);
  });

  it('throws at creation when a task is not one of the schedule', () => {
    // Prepare
    const tasks = { 'analytics-rollup': async () => ({}) };

    // Act
    const create = () => createJobHandler('daily', tasks);

    // Assess
    expect(create).toThrow('Task "analytics-rollup" is not a task of schedule "daily"');
  });

  it('logs the error name and message when a task fails', async () => {
    // Prepare
    const lines: string[] = [];
    jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
    const previous = process.env.LOG_LEVEL;
    process.env.LOG_LEVEL = 'info';
    let isolated: typeof createJobHandler = createJobHandler;
    jest.isolateModules(() => {
      isolated = (require('#jobs/run-job') as typeof import('#jobs/run-job')).createJobHandler;
    });
    if (previous === undefined) delete process.env.LOG_LEVEL;
    else process.env.LOG_LEVEL = previous;
    const handler = isolated('hourly', {
      'analytics-rollup': async () => {
        throw new RangeError('bucket out of range');
      },
    });

    // Act
    await handler(dailyEvent({ schedule: 'hourly', scheduled_time: '2030-01-01T09:00:00Z' }));

    // Assess
    const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(records).toContainEqual(
      expect.objectContaining({
        level: 'error',
        message: 'task failed',
        task: 'analytics-rollup',
        error: { name: 'RangeError', message: 'bucket out of range' },
      }),
    );
    expect(records).toContainEqual(expect.objectContaining({ level: 'warn', message: 'task not implemented', task: 'advance-campaign-steps' }));
  });
});
