import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { scheduleDefinitions } from '#contracts/schedules';

const root = join(__dirname, '..', '..', '..');
const tsx = join(root, 'node_modules', '.bin', 'tsx');

function runJob(args: string[], env: Record<string, string> = {}) {
  const { DYNAMODB_ENDPOINT: _endpoint, TABLE_NAME: _table, ...inherited } = process.env;
  return spawnSync(tsx, [join(root, 'bin', 'job.ts'), ...args], {
    cwd: root,
    env: { ...inherited, LOG_LEVEL: 'silent', ...env },
    encoding: 'utf8',
    timeout: 30_000,
  });
}

describe('bin/job', () => {
  it('exits with code 2 and one line on stderr when the job name is unknown', () => {
    // Prepare
    const args = ['weekly'];

    // Act
    const result = runJob(args);

    // Assess
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.trimEnd().split('\n')).toEqual([expect.stringContaining('unknown job "weekly"')]);
  }, 30_000);

  it('exits with code 2 when no job name is given', () => {
    // Prepare
    const args: string[] = [];

    // Act
    const result = runJob(args);

    // Assess
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('no job name given');
  }, 30_000);

  it('exits with code 2 when --at is not an ISO time', () => {
    // Act
    const result = runJob(['every-minute', '--at', 'tomorrow']);

    // Assess
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('--at must be an ISO 8601 time');
  }, 30_000);

  it('runs the job as at the --at time, rounded up to the whole second', () => {
    // Prepare: nothing listens on port 9; the report is printed all the same.
    const env = { DYNAMODB_ENDPOINT: 'http://127.0.0.1:9', TABLE_NAME: 'no-table-needed' };

    // Act
    const result = runJob(['hourly', '--at', '2027-01-05T09:00:00.354Z'], env);

    // Assess
    expect((JSON.parse(result.stdout) as { scheduled_time: string }).scheduled_time).toBe('2027-01-05T09:00:01Z');
  }, 30_000);

  it('prints the JobReport as JSON on stdout when the job runs', () => {
    // Prepare: nothing listens on port 9, so a task that needs the database is reported failed (exit 1).
    const env = { DYNAMODB_ENDPOINT: 'http://127.0.0.1:9', TABLE_NAME: 'no-table-needed' };

    // Act
    const result = runJob(['hourly'], env);

    // Assess
    const report = JSON.parse(result.stdout) as { schedule: string; scheduled_time: string; tasks: { name: string; status: string }[] };
    expect(report.schedule).toBe('hourly');
    expect(report.scheduled_time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect(report.tasks.map((task) => task.name)).toEqual(scheduleDefinitions.find((definition) => definition.name === 'hourly')?.tasks);
    expect(result.status).toBe(report.tasks.some((task) => task.status === 'failed') ? 1 : 0);
  }, 30_000);
});
