import { Client, type ClientConfig } from 'pg';

export interface FrozenServerClientConfig extends ClientConfig {
  /** How long a query may go without any answer before its connection is dropped; 0 never. */
  readTimeoutMillis?: number;
}

/** What the watchdog reads of pg's client: whether a query has been sent and not yet answered. */
interface PgClientState {
  _getActiveQuery(): unknown;
}

/**
 * A pg client whose connection is dropped when a query has had no answer for `readTimeoutMillis`
 * (a server that accepts but never answers): the query fails at once with pg's "Connection
 * terminated", and so does whatever the caller would send next on that connection (the ROLLBACK of
 * a failed transaction, say), and the pool replaces it.
 *
 * One watchdog timer checks every such client, rather than pg's `query_timeout`: that arms a timer
 * and wraps the query's callback in a closure for every query, and with a callback wrapped so, V8
 * kept each result's rows alive through young-generation collections (half a megabyte per
 * 2000-row answer promoted to the old generation, there to be marked and compacted).
 */
export class FrozenServerClient extends Client {
  /** When this client last sent a query or heard from the server (performance.now()). */
  lastActivity = performance.now();
  readonly readTimeoutMillis: number;

  constructor(config: FrozenServerClientConfig = {}) {
    super(config);
    this.readTimeoutMillis = config.readTimeoutMillis ?? 0;
    const query = this.query.bind(this) as (...args: unknown[]) => unknown;
    // Assigned per instance, passing everything through: pg's query has a dozen overloads a
    // subclass method would have to restate.
    this.query = ((...args: unknown[]) => {
      this.lastActivity = performance.now();
      return query(...args);
    }) as Client['query'];
    this.connection.stream.on('data', () => {
      this.lastActivity = performance.now();
    });
    if (this.readTimeoutMillis > 0) watchdog.watch(this);
    this.once('end', () => watchdog.forget(this));
  }

  /** Whether a query has waited longer than the read timeout with nothing heard. */
  isFrozen(now: number): boolean {
    return now - this.lastActivity > this.readTimeoutMillis && (this as unknown as PgClientState)._getActiveQuery() != null;
  }

  drop(): void {
    this.connection.stream.destroy();
  }
}

/** How often the watchdog looks: a frozen server is noticed at most this long after the read timeout. */
const WATCHDOG_PERIOD_MS = 250;

/** Checks the watched clients; runs only while there are any. */
class Watchdog {
  private readonly clients = new Set<FrozenServerClient>();
  private timer: NodeJS.Timeout | undefined;

  watch(client: FrozenServerClient): void {
    this.clients.add(client);
    this.timer ??= setInterval(() => this.check(), WATCHDOG_PERIOD_MS).unref();
  }

  forget(client: FrozenServerClient): void {
    this.clients.delete(client);
    if (this.clients.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  private check(): void {
    const now = performance.now();
    for (const client of this.clients) if (client.isFrozen(now)) client.drop();
  }
}

const watchdog = new Watchdog();
