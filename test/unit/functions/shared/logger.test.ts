import { createLogger, type LoggerOptions } from '#shared/logger';

function capture(options: Omit<LoggerOptions, 'write' | 'now'> = {}) {
  const lines: string[] = [];
  const logger = createLogger({ ...options, write: (line) => lines.push(line), now: () => Date.UTC(2030, 0, 1, 8) });
  return { logger, lines, records: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

describe('logger', () => {
  it('writes one JSON object per line with level, message, timestamp and the fields', () => {
    // Prepare
    const { logger, lines, records } = capture({ level: 'info' });

    // Act
    logger.info('batch processed', { queue: 'notifications', records: 10, failed: 1 });

    // Assess
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain('\n');
    expect(records()[0]).toEqual({
      level: 'info',
      message: 'batch processed',
      timestamp: '2030-01-01T08:00:00.000Z',
      queue: 'notifications',
      records: 10,
      failed: 1,
    });
  });

  it('drops lines below the level when a level is set', () => {
    // Prepare
    const { logger, records } = capture({ level: 'warn' });

    // Act
    logger.debug('d');
    logger.info('i');
    logger.warn('w');
    logger.error('e');

    // Assess
    expect(records().map((record) => record.level)).toEqual(['warn', 'error']);
  });

  it('prints nothing when the level is silent', () => {
    // Prepare
    const { logger, lines } = capture({ level: 'silent' });

    // Act
    logger.error('e', { id: 1 });

    // Assess
    expect(lines).toEqual([]);
  });

  it('writes an error as its name and message when a field holds one', () => {
    // Prepare
    const { logger, records } = capture({ level: 'info' });

    // Act
    logger.error('task failed', { error: new RangeError('out of range'), count: 10n });

    // Assess
    expect(records()[0]).toMatchObject({ error: { name: 'RangeError', message: 'out of range' }, count: '10' });
  });

  it('keeps level, message and timestamp when fields try to override them', () => {
    // Prepare
    const { logger, records } = capture({ level: 'info' });

    // Act
    logger.info('real', { level: 'error', message: 'forged', timestamp: 'never' });

    // Assess
    expect(records()[0]).toEqual({ level: 'info', message: 'real', timestamp: '2030-01-01T08:00:00.000Z' });
  });

  it('adds the bound fields to every line when it is a child', () => {
    // Prepare
    const { logger, records } = capture({ level: 'debug' });

    // Act
    logger.child({ request_id: 'req_1' }).debug('matched', { route: 'GET /health' });

    // Assess
    expect(records()[0]).toMatchObject({ request_id: 'req_1', route: 'GET /health', level: 'debug' });
  });

  it('throws naming LOG_LEVEL when the environment gives an unknown level', () => {
    // Prepare
    const previous = process.env.LOG_LEVEL;
    process.env.LOG_LEVEL = 'verbose';

    // Act
    const create = () => createLogger({ write: () => undefined });

    // Assess
    try {
      expect(create).toThrow(/LOG_LEVEL must be one of debug, info, warn, error, silent/);
    } finally {
      if (previous === undefined) delete process.env.LOG_LEVEL;
      else process.env.LOG_LEVEL = previous;
    }
  });
});
