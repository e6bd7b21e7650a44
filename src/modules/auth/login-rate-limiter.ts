import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { AppConfig } from '../../common/config/app-config';
import { TooManyRequestsError } from '../../common/errors/common-errors';
import { LoginFailureEntity } from './login-failure.entity';

/**
 * Limits failed logins per key (client address, username) in a sliding window. Only failures
 * count; once a key is over the limit even a correct password is refused until the oldest failure
 * in the window expires, which is what makes guessing slow.
 */
@Injectable()
export class LoginRateLimiter {
  constructor(
    @InjectRepository(LoginFailureEntity) private readonly failures: Repository<LoginFailureEntity>,
    private readonly config: AppConfig,
  ) {}

  async assertAllowed(keys: string[]): Promise<void> {
    const { limit, windowSeconds } = this.config.authRateLimit;
    const rows = await this.failures
      .createQueryBuilder('f')
      .select('f.key', 'key')
      .addSelect('count(*)::int', 'failures')
      .addSelect(`ceil(extract(epoch FROM min(f.created_at) + make_interval(secs => :window) - now()))::int`, 'retry_after')
      .where('f.key IN (:...keys)', { keys })
      .andWhere('f.created_at > now() - make_interval(secs => :window)', { window: windowSeconds })
      .groupBy('f.key')
      .getRawMany<{ key: string; failures: number; retry_after: number }>();
    const blocked = rows.filter((row) => row.failures >= limit);
    if (blocked.length === 0) return;
    const retryAfter = Math.max(1, ...blocked.map((row) => row.retry_after));
    throw new TooManyRequestsError(`Too many failed login attempts; retry in ${retryAfter} seconds`, retryAfter);
  }

  async recordFailure(manager: EntityManager, keys: string[]): Promise<void> {
    await manager.insert(
      LoginFailureEntity,
      keys.map((key) => ({ key })),
    );
  }

  /** Failures older than the window no longer count. */
  async purge(): Promise<void> {
    await this.failures
      .createQueryBuilder()
      .delete()
      .where('created_at <= now() - make_interval(secs => :window)', { window: this.config.authRateLimit.windowSeconds })
      .execute();
  }
}
