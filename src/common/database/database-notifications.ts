import { Client, type Notification } from 'pg';
import type { Logger } from 'pino';

/** What a subscriber to a PostgreSQL notification channel is told. */
export interface NotificationSubscriber {
  /** A notification on the channel, sent by a transaction that has committed. */
  notified(payload: string): void;
  /** Notifications on the channel reach this process from now on; any sent before were lost. */
  listening(): void;
  /** Notifications may be lost from now until the next {@link listening}. */
  deaf(): void;
}

/** How long after the listening connection is lost the next attempt to open it starts. */
const RECONNECT_DELAY_MS = 1000;
/** TCP keep-alive probes start after this much silence, so a vanished server is noticed in seconds. */
const KEEP_ALIVE_DELAY_MS = 10_000;
/** Names the listening connection in pg_stat_activity. */
export const LISTENER_APPLICATION_NAME = 'notification-listener';

/**
 * PostgreSQL LISTEN/NOTIFY for this process: one connection of its own LISTENs on every subscribed
 * channel, and subscribers are told when it is lost and when it listens again, so that whatever
 * they keep on the strength of notifications they drop while none can arrive.
 *
 * The pool's connections LISTEN on `poolChannels` too ({@link attachPoolClient}): a session hears
 * its own notifications as its transaction commits, before the commit's answer, so a change this
 * process makes is delivered here before the request that made it answers. On the embedded
 * database every connection is one session, so that is also how the process hears changes it makes.
 */
export class DatabaseNotifications {
  private readonly subscribers = new Map<string, Set<NotificationSubscriber>>();
  private client?: Client;
  private active = false;
  private reconnectTimer?: NodeJS.Timeout;

  constructor(
    private readonly url: string,
    private readonly poolChannels: readonly string[],
    private readonly logger: Logger,
  ) {}

  /** The pool's `onConnect`: the new connection LISTENs on the pool channels and delivers what it hears. */
  async attachPoolClient(client: Client): Promise<void> {
    client.on('notification', (message) => this.deliver(message));
    for (const channel of this.poolChannels) await client.query(`LISTEN ${channel}`);
  }

  /** Starts listening on `channel` for `subscriber`; it is told {@link NotificationSubscriber.listening} once LISTEN has run. */
  subscribe(channel: string, subscriber: NotificationSubscriber): void {
    let set = this.subscribers.get(channel);
    if (!set) this.subscribers.set(channel, (set = new Set()));
    set.add(subscriber);
    if (!this.active) {
      this.active = true;
      void this.connect();
    } else if (this.client) {
      // A channel added to a live connection: the subscriber hears of it once its LISTEN has run.
      void this.client.query(`LISTEN ${channel}`).then(
        () => subscriber.listening(),
        () => undefined,
      );
    }
  }

  /** Stops telling `subscriber`; the connection closes when nobody is subscribed. */
  async unsubscribe(channel: string, subscriber: NotificationSubscriber): Promise<void> {
    this.subscribers.get(channel)?.delete(subscriber);
    if (this.subscribers.get(channel)?.size === 0) this.subscribers.delete(channel);
    if (this.subscribers.size > 0 || !this.active) return;
    this.active = false;
    clearTimeout(this.reconnectTimer);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const client = new Client({
      connectionString: this.url,
      application_name: LISTENER_APPLICATION_NAME,
      keepAlive: true,
      keepAliveInitialDelayMillis: KEEP_ALIVE_DELAY_MS,
    });
    this.client = client;
    client.on('notification', (message) => this.deliver(message));
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      for (const channel of this.subscribers.keys()) await client.query(`LISTEN ${channel}`);
    } catch (error) {
      this.lost(client, error as Error);
      return;
    }
    if (this.client !== client) return;
    for (const set of this.subscribers.values()) for (const subscriber of set) subscriber.listening();
  }

  /** The connection `client` failed or closed: subscribers are told at once, and a new one is opened after a pause. */
  private lost(client: Client, error?: Error): void {
    if (client !== this.client) return;
    this.client = undefined;
    for (const set of this.subscribers.values()) for (const subscriber of set) subscriber.deaf();
    client.on('error', () => undefined);
    void client.end().catch(() => undefined);
    if (!this.active) return;
    this.logger.warn({ err: error?.message ?? 'connection closed' }, 'database notification connection lost; reconnecting');
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      if (this.active) void this.connect();
    }, RECONNECT_DELAY_MS);
  }

  private deliver(message: Notification): void {
    for (const subscriber of this.subscribers.get(message.channel) ?? []) subscriber.notified(message.payload ?? '');
  }
}
