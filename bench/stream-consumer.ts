import { createTableStreamHandler } from '#consumers/table-stream';
import { projectedEntities } from '#data/projections/index';
import { sendTransaction } from '#data/stream-apply';
import { env } from '#shared/env';
import { LocalTableStream, type StreamPassCounts } from '#lib/local/table-stream';
import { asConsumer } from './call-tally';

/** How long the loop waits after a pass that found nothing new (the local runtime polls every 250 ms). */
const IDLE_MS = 250;

export interface ConsumerRun {
  /** Stream records handed to the consumer (its own writes' records included, which it skips). */
  readonly records: number;
  readonly batches: number;
  /** Seconds from the start of the run until the counters were complete (the last drain returned). */
  readonly seconds: number;
  /** Seconds from the end of the writes until the counters were complete. */
  readonly lagSeconds: number;
}

/**
 * The table-stream consumer of the stack, run beside a measurement as the local runtime runs it
 * (lib/local/table-stream.ts reading DynamoDB Local's stream, the real handler of
 * functions/consumers/table-stream.ts): a loop of passes, back to back while there are records,
 * 250 ms apart when there are none. Its DynamoDB calls are tallied apart (call-tally.ts `asConsumer`).
 */
export class ConsumerLoop {
  private readonly stream: LocalTableStream;
  private readonly totals: StreamPassCounts = { records: 0, batches: 0, failed: 0 };
  private running = false;
  private loop: Promise<void> = Promise.resolve();
  private started = 0;
  /** The last error of a chunk's transaction (the handler logs it, and the bench's log level is silent). */
  private lastError: unknown;

  constructor(tableName: string = env.TABLE_NAME, endpoint: string = env.DYNAMODB_ENDPOINT as string) {
    const handler = createTableStreamHandler({
      send: async (input) => {
        try {
          return await sendTransaction(input);
        } catch (error) {
          this.lastError = error;
          throw error;
        }
      },
    });
    this.stream = new LocalTableStream({
      endpoint,
      tableName,
      region: env.AWS_REGION,
      handler: (event) => asConsumer(() => handler(event)),
      // The event source mapping's filter, as on AWS and in the local stack.
      entities: projectedEntities,
    });
  }

  /** Everything in the stream so far applied (e.g. the seeded items), before a measurement starts. */
  async catchUp(): Promise<void> {
    await this.guard(this.stream.drain(1_000));
  }

  private async guard<T>(work: Promise<T>): Promise<T> {
    try {
      return await work;
    } catch (error) {
      throw new Error(`${(error as Error).message}; last transaction error: ${String(this.lastError)}`, { cause: error });
    }
  }

  start(): void {
    this.running = true;
    this.started = Date.now();
    this.totals.records = 0;
    this.totals.batches = 0;
    this.totals.failed = 0;
    this.loop = (async () => {
      while (this.running) {
        const counts = await this.stream.poll();
        this.add(counts);
        if (counts.failed > 0) throw new Error(`The table-stream consumer failed a batch during the bench: ${String(this.lastError)}`);
        if (counts.records === 0) await new Promise((done) => setTimeout(done, IDLE_MS));
      }
    })();
  }

  /** Called when the writes have ended: drains what is left, stops, and says how long the counters trailed. */
  async finish(): Promise<ConsumerRun> {
    const writesEnded = Date.now();
    this.running = false;
    await this.loop;
    this.add(await this.guard(this.stream.drain(1_000)));
    const done = Date.now();
    await this.stream.stop();
    return { records: this.totals.records, batches: this.totals.batches, seconds: (done - this.started) / 1000, lagSeconds: (done - writesEnded) / 1000 };
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.loop.catch(() => undefined);
    await this.stream.stop();
  }

  private add(counts: StreamPassCounts): void {
    this.totals.records += counts.records;
    this.totals.batches += counts.batches;
    this.totals.failed += counts.failed;
  }
}
