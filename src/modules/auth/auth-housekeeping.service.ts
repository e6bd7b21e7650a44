import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { ROOT_LOGGER } from '../../common/logging/logging.module';
import { LoginRateLimiter } from './login-rate-limiter';
import { SessionService } from './session.service';

const PURGE_INTERVAL_MS = 60 * 60 * 1000;

/** Purges expired tokens, blocklist entries and stale login failures at start and every hour. */
@Injectable()
export class AuthHousekeeping implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly sessions: SessionService,
    private readonly rateLimiter: LoginRateLimiter,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    this.running = this.purge();
    this.timer = setInterval(() => {
      this.running = this.purge();
    }, PURGE_INTERVAL_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  async purge(): Promise<void> {
    try {
      await this.dataSource.transaction((manager) => this.sessions.purgeExpired(manager));
      await this.rateLimiter.purge();
    } catch (error) {
      this.logger.warn({ err: error }, 'purge of expired authentication rows failed');
    }
  }
}
