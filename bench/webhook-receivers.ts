import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/**
 * Webhook receivers of the `webhook-delivery` bench: one `node:http` server on loopback, each
 * endpoint its own path (`/e/<n>`). Every request is verified with `standardwebhooks` (a verifier
 * we did not write) against its endpoint's secret, and the first arrival of each `webhook-id` at
 * each endpoint is kept with its time, so that a delivery's first attempt is timed from the
 * receiver's side. A path may be told to hang (never answer: the sender cuts it at 15 s) or to
 * fail (answer 500).
 */

export type Behaviour = 'answer' | 'hang' | 'fail';

export interface Arrival {
  /** The endpoint's path number. */
  readonly endpoint: number;
  readonly webhookId: string;
  /** Milliseconds since the epoch, the wall clock the event's `created_at` and `dispatched_at` are read from. */
  readonly at: number;
  /** The event's `created_at` (from the verified payload), in milliseconds since the epoch. */
  readonly createdAt: number;
}

export class BenchReceivers {
  private readonly secrets = new Map<number, Webhook>();
  private readonly behaviours = new Map<number, Behaviour>();
  private readonly firsts = new Map<string, Arrival>();
  private readonly open = new Set<ServerResponse>();
  private waiters: { readonly count: number; readonly done: () => void }[] = [];
  private nextPath = 0;
  /** The events of the run being measured (filled as they are written, before each write is sent). */
  private expected: ReadonlySet<string> = new Set();
  /** Requests whose signature `standardwebhooks` refused (must stay 0). */
  signatureFailures = 0;
  /** Requests after the first of the same webhook-id at the same endpoint (retries, redeliveries). */
  repeats = 0;
  /** Requests left hanging on purpose. */
  hung = 0;
  /** Requests of events written before the run (a previous run's retries): not counted as first attempts. */
  strays = 0;

  private constructor(
    private readonly server: Server,
    readonly origin: string,
  ) {}

  static async start(): Promise<BenchReceivers> {
    const server = createServer();
    // A deep accept queue: a burst of a thousand connections at once must not wait for SYN retries.
    await new Promise<void>((resolve) => server.listen({ port: 0, host: '127.0.0.1', backlog: 4096 }, resolve));
    const receivers = new BenchReceivers(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    server.on('request', (req, res) => receivers.handle(req, res));
    return receivers;
  }

  /** A new endpoint path; its URL and number (tell the receiver its secret once registered). */
  path(): { readonly url: string; readonly endpoint: number } {
    const endpoint = this.nextPath++;
    return { url: `${this.origin}/e/${endpoint}`, endpoint };
  }

  setSecret(endpoint: number, secret: string): void {
    this.secrets.set(endpoint, new Webhook(secret));
  }

  /** How the endpoint's requests are answered: 200 (the default), never (until the sender gives up), or 500. */
  setBehaviour(endpoint: number, behaviour: Behaviour): void {
    this.behaviours.set(endpoint, behaviour);
  }

  /** First arrivals so far (kept until `reset`). */
  arrivals(): Arrival[] {
    return [...this.firsts.values()];
  }

  /** Requests left hanging and not yet closed by the sender. */
  get openRequests(): number {
    return this.open.size;
  }

  get firstArrivals(): number {
    return this.firsts.size;
  }

  /** Starts a run: only deliveries of the events in `expected` count (the set may grow while the run writes). */
  reset(expected: ReadonlySet<string>): void {
    this.expected = expected;
    this.firsts.clear();
    this.signatureFailures = 0;
    this.repeats = 0;
    this.hung = 0;
    this.strays = 0;
  }

  /** Resolves once `count` first arrivals have been seen, or rejects after `timeoutMs`. */
  waitFor(count: number, timeoutMs: number): Promise<void> {
    if (this.firsts.size >= count) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((waiter) => waiter.done !== done);
        reject(new Error(`Only ${this.firsts.size} of ${count} first deliveries arrived within ${timeoutMs / 1000} s`));
      }, timeoutMs);
      const done = (): void => {
        clearTimeout(timer);
        resolve();
      };
      this.waiters.push({ count, done });
    });
  }

  async close(): Promise<void> {
    for (const res of this.open) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const at = Date.now();
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const endpoint = Number(/^\/e\/(\d+)$/.exec(req.url ?? '')?.[1] ?? Number.NaN);
      const verifier = this.secrets.get(endpoint);
      const body = Buffer.concat(chunks).toString('utf8');
      let payload: { id: string; created_at: string };
      try {
        if (verifier === undefined) throw new Error(`no secret for ${req.url}`);
        payload = verifier.verify(body, req.headers as Record<string, string>) as { id: string; created_at: string };
      } catch {
        this.signatureFailures += 1;
        res.writeHead(400).end();
        return;
      }
      const webhookId = String(req.headers['webhook-id']);
      const key = `${endpoint} ${webhookId}`;
      if (!this.expected.has(webhookId)) this.strays += 1;
      else if (this.firsts.has(key)) this.repeats += 1;
      else this.firsts.set(key, { endpoint, webhookId, at, createdAt: Date.parse(payload.created_at) });
      this.notify();
      const behaviour = this.behaviours.get(endpoint) ?? 'answer';
      if (behaviour === 'hang') {
        this.hung += 1;
        this.open.add(res);
        res.on('close', () => this.open.delete(res));
        return;
      }
      res.writeHead(behaviour === 'fail' ? 500 : 200).end();
    });
  }

  private notify(): void {
    const size = this.firsts.size;
    const due = this.waiters.filter((waiter) => waiter.count <= size);
    if (due.length === 0) return;
    this.waiters = this.waiters.filter((waiter) => waiter.count > size);
    for (const waiter of due) waiter.done();
  }
}
