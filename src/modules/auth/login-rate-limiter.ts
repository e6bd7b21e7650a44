import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { AppConfig } from '../../common/config/app-config';
import { TooManyRequestsError } from '../../common/errors/common-errors';

/** The failure rows a login attempt reserved before its password was checked. */
export interface LoginReservation {
  ids: string[];
}

interface ReservationKeys {
  address: string;
  pair: string;
  user: string;
}

/** How long an attempt keeps trying for its keys' locks before it is refused with 429. */
const LOCK_PATIENCE_MS = 2000;
/** Pause between tries, random within these bounds so that contenders do not retry in step. */
const RETRY_PAUSE_MS = { min: 5, max: 40 };
/** The Retry-After of an attempt refused for contention: locks are held for a few statements. */
const BUSY_RETRY_AFTER_SECONDS = 1;

interface Counter {
  key: string;
  windowSeconds: number;
}

/**
 * Limits failed logins in sliding windows, per client address, per (address, username) and per
 * username across addresses. The per-username ceiling only refuses addresses that themselves failed
 * for that username recently, so a stranger cannot lock a user out of an address they never touched.
 *
 * An attempt reserves its failure rows before the (slow) password check, under advisory locks on its
 * keys, so parallel attempts cannot all pass a check that each would fail in turn. A success removes
 * its reservation; a failure keeps it as the recorded failure. The locks are only ever tried, never
 * waited for in the database: a busy key means a short pause and another try, and an attempt that
 * cannot get its locks within {@link LOCK_PATIENCE_MS} is refused with 429, so no login runs into the
 * database's lock timeout (a 503).
 */
@Injectable()
export class LoginRateLimiter {
  constructor(
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
  ) {}

  async reserve(clientAddress: string, username: string): Promise<LoginReservation> {
    const keys: ReservationKeys = {
      address: `ip:${clientAddress}`,
      pair: `ip-user:${createHash('sha256').update(`${clientAddress}\n${username.toLowerCase()}`).digest('hex')}`,
      user: `user:${username.toLowerCase()}`,
    };
    const deadline = Date.now() + LOCK_PATIENCE_MS;
    for (;;) {
      const reservation = await this.tryReserve(keys);
      if (reservation) return reservation;
      if (Date.now() >= deadline) {
        throw new TooManyRequestsError(
          `Too many login attempts in progress; retry in ${BUSY_RETRY_AFTER_SECONDS} seconds`,
          BUSY_RETRY_AFTER_SECONDS,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, RETRY_PAUSE_MS.min + Math.random() * (RETRY_PAUSE_MS.max - RETRY_PAUSE_MS.min)));
    }
  }

  /** One try: null when another attempt holds one of the keys' locks (nothing written then). */
  private tryReserve(keys: ReservationKeys): Promise<LoginReservation | null> {
    const { authAddressRateLimit: address, authRateLimit: pair, authUsernameRateLimit: user } = this.config;
    return this.dataSource.transaction(async (manager) => {
      const [own] = (await manager.query(
        'SELECT pg_try_advisory_xact_lock(hashtextextended($1, 0)) AND pg_try_advisory_xact_lock(hashtextextended($2, 0)) AS locked',
        [keys.address, keys.pair],
      )) as Array<{ locked: boolean }>;
      if (!own.locked) return null;
      // Only an address that failed for this username can be refused by its ceiling, and only that check
      // needs every failure in flight for the username counted: it takes the username's lock alone. The
      // others share it, so attempts from many addresses do not queue behind one another. This statement
      // runs after the pair's lock is held, so it sees the pair's every earlier failure.
      const [shared] = (await manager.query(
        `SELECT CASE WHEN EXISTS (SELECT 1 FROM login_failures WHERE key = $2 AND created_at > now() - make_interval(secs => $3))
                THEN pg_try_advisory_xact_lock(hashtextextended($1, 0))
                ELSE pg_try_advisory_xact_lock_shared(hashtextextended($1, 0)) END AS locked`,
        [keys.user, keys.pair, user.windowSeconds],
      )) as Array<{ locked: boolean }>;
      if (!shared.locked) return null;
      const [addressCount, pairCount, userCount, pairInUserWindow] = await countFailures(manager, [
        { key: keys.address, windowSeconds: address.windowSeconds },
        { key: keys.pair, windowSeconds: pair.windowSeconds },
        { key: keys.user, windowSeconds: user.windowSeconds },
        { key: keys.pair, windowSeconds: user.windowSeconds },
      ]);
      const blocked = [
        addressCount.failures >= address.limit ? addressCount : undefined,
        pairCount.failures >= pair.limit ? pairCount : undefined,
        userCount.failures >= user.limit && pairInUserWindow.failures > 0 ? userCount : undefined,
      ].filter((count): count is FailureCount => count !== undefined);
      if (blocked.length > 0) {
        const retryAfter = Math.max(1, ...blocked.map((count) => count.retryAfter));
        throw new TooManyRequestsError(`Too many failed login attempts; retry in ${retryAfter} seconds`, retryAfter);
      }
      const rows = (await manager.query('INSERT INTO login_failures (key) SELECT unnest($1::varchar[]) RETURNING id', [
        [keys.address, keys.pair, keys.user],
      ])) as Array<{ id: string }>;
      return { ids: rows.map((row) => String(row.id)) };
    });
  }

  /** The attempt succeeded: it was no failure. */
  async release(reservation: LoginReservation): Promise<void> {
    await this.dataSource.query('DELETE FROM login_failures WHERE id = ANY($1::bigint[])', [reservation.ids]);
  }

  /** Failures older than the longest window no longer count. */
  async purge(): Promise<void> {
    const { authAddressRateLimit, authRateLimit, authUsernameRateLimit } = this.config;
    const window = Math.max(authAddressRateLimit.windowSeconds, authRateLimit.windowSeconds, authUsernameRateLimit.windowSeconds);
    await this.dataSource.query('DELETE FROM login_failures WHERE created_at <= now() - make_interval(secs => $1)', [window]);
  }
}

interface FailureCount {
  failures: number;
  /** Seconds until the oldest counted failure leaves its window. */
  retryAfter: number;
}

async function countFailures(manager: EntityManager, counters: Counter[]): Promise<FailureCount[]> {
  const rows = (await manager.query(
    `SELECT c.position, count(f.id)::int AS failures,
            coalesce(ceil(extract(epoch FROM min(f.created_at) + make_interval(secs => c.window_seconds) - now())), 0)::int AS retry_after
       FROM unnest($1::varchar[], $2::int[]) WITH ORDINALITY AS c(key, window_seconds, position)
       LEFT JOIN login_failures f ON f.key = c.key AND f.created_at > now() - make_interval(secs => c.window_seconds)
      GROUP BY c.position, c.window_seconds
      ORDER BY c.position`,
    [counters.map((counter) => counter.key), counters.map((counter) => counter.windowSeconds)],
  )) as Array<{ failures: number; retry_after: number }>;
  return rows.map((row) => ({ failures: row.failures, retryAfter: row.retry_after }));
}
