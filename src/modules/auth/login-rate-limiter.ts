import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { AppConfig } from '../../common/config/app-config';
import { TooManyRequestsError } from '../../common/errors/common-errors';

/** The failure rows a login attempt reserved before its password was checked. */
export interface LoginReservation {
  ids: string[];
}

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
 * its reservation; a failure keeps it as the recorded failure.
 */
@Injectable()
export class LoginRateLimiter {
  constructor(
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
  ) {}

  async reserve(clientAddress: string, username: string): Promise<LoginReservation> {
    const { authAddressRateLimit: address, authRateLimit: pair, authUsernameRateLimit: user } = this.config;
    const addressKey = `ip:${clientAddress}`;
    const pairKey = `ip-user:${createHash('sha256').update(`${clientAddress}\n${username.toLowerCase()}`).digest('hex')}`;
    const userKey = `user:${username.toLowerCase()}`;
    return this.dataSource.transaction(async (manager) => {
      for (const key of [addressKey, pairKey, userKey].sort()) {
        await manager.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [key]);
      }
      const [addressCount, pairCount, userCount, pairInUserWindow] = await countFailures(manager, [
        { key: addressKey, windowSeconds: address.windowSeconds },
        { key: pairKey, windowSeconds: pair.windowSeconds },
        { key: userKey, windowSeconds: user.windowSeconds },
        { key: pairKey, windowSeconds: user.windowSeconds },
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
        [addressKey, pairKey, userKey],
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
