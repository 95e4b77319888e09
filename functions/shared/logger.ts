import * as z from './zod';

/**
 * A small structured logger: one JSON object per line with `level`, `message`, `timestamp`, then
 * the fields. Pass ids and counts as fields, never a whole message or request body: bodies may
 * carry card data, API keys or webhook secrets.
 *
 * Lines go to stderr, which Lambda ships to CloudWatch like stdout, so that CLIs (`npm run job`)
 * keep stdout for their JSON result.
 *
 * @example
 * logger.info('batch processed', { queue: 'notifications', records: 10, failed: 1 });
 * logger.child({ request_id }).warn('rate limited', { merchant_id });
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type LogFields = Readonly<Record<string, unknown>>;

export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  /** A logger that adds `fields` to every line (a request id, a job execution id). */
  child(fields: LogFields): Logger;
}

export interface LoggerOptions {
  /** @default process.env.LOG_LEVEL, else 'info' */
  readonly level?: LogLevel | 'silent';
  /** @default a line on process.stderr */
  readonly write?: (line: string) => void;
  /** @default Date.now */
  readonly now?: () => number;
}

const severity: Record<LogLevel | 'silent', number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };
const reserved = new Set(['level', 'message', 'timestamp']);
const LogLevelSchema = z.enum(['debug', 'info', 'warn', 'error', 'silent']);

function levelFromEnv(): LogLevel | 'silent' {
  const parsed = LogLevelSchema.safeParse(process.env.LOG_LEVEL ?? 'info');
  if (!parsed.success) throw new Error(`Invalid environment: LOG_LEVEL must be one of ${LogLevelSchema.options.join(', ')}`);
  return parsed.data;
}

// Errors have no enumerable properties, so JSON.stringify would print `{}`.
function replacer(_key: string, value: unknown): unknown {
  if (value instanceof Error) return { name: value.name, message: value.message };
  if (typeof value === 'bigint') return value.toString();
  return value;
}

function serialise(record: Record<string, unknown>): string {
  try {
    return JSON.stringify(record, replacer);
  } catch {
    const { level, message, timestamp } = record;
    return JSON.stringify({ level, message, timestamp, log_error: 'fields could not be serialised' });
  }
}

export function createLogger(options: LoggerOptions = {}, bound: LogFields = {}): Logger {
  const level = options.level ?? levelFromEnv();
  const threshold = severity[level];
  const write = options.write ?? ((line: string) => void process.stderr.write(`${line}\n`));
  const now = options.now ?? Date.now;

  const log = (lineLevel: LogLevel, message: string, fields: LogFields = {}): void => {
    if (severity[lineLevel] < threshold) return;
    const record: Record<string, unknown> = { level: lineLevel, message, timestamp: new Date(now()).toISOString() };
    for (const [key, value] of Object.entries({ ...bound, ...fields })) {
      if (!reserved.has(key)) record[key] = value;
    }
    write(serialise(record));
  };

  return {
    debug: (message, fields) => log('debug', message, fields),
    info: (message, fields) => log('info', message, fields),
    warn: (message, fields) => log('warn', message, fields),
    error: (message, fields) => log('error', message, fields),
    child: (fields) => createLogger({ ...options, level }, { ...bound, ...fields }),
  };
}

/** The process's logger, at the level of `LOG_LEVEL`. */
export const logger: Logger = createLogger();
