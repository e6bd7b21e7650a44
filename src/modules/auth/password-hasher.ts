import { Injectable } from '@nestjs/common';
import * as argon2 from 'argon2';
import { AppConfig } from '../../common/config/app-config';
import { TooManyRequestsError } from '../../common/errors/common-errors';

/** Seconds a caller refused for a full hashing queue is told to wait: the queue drains in well under that. */
const BUSY_RETRY_AFTER_SECONDS = 1;

/**
 * argon2id password hashing. `verifyNothing` spends the same work as a real verification, so a
 * login for an unknown user takes as long as one with a wrong password.
 *
 * At most `AUTH_HASH_CONCURRENCY` hashes run at once in this process (each takes 64 MiB and a
 * thread of libuv's small pool) and at most `AUTH_HASH_QUEUE` wait, first come first served; past
 * that a hash is refused at once with 429, so a burst of logins cannot make every caller, the right
 * password included, wait behind it.
 */
@Injectable()
export class PasswordHasher {
  private readonly decoy: Promise<string> = argon2.hash('decoy password for unknown users', { type: argon2.argon2id });
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly config: AppConfig) {}

  hash(password: string): Promise<string> {
    return this.bounded(() => argon2.hash(password, { type: argon2.argon2id }));
  }

  async verify(hash: string, password: string): Promise<boolean> {
    return this.bounded(async () => {
      try {
        return await argon2.verify(hash, password);
      } catch {
        return false;
      }
    });
  }

  async verifyNothing(password: string): Promise<false> {
    const decoy = await this.decoy;
    await this.verify(decoy, password);
    return false;
  }

  private async bounded<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.config.authHashConcurrency) {
      if (this.waiting.length >= this.config.authHashQueue) {
        throw new TooManyRequestsError(
          `Too many password checks in progress; retry in ${BUSY_RETRY_AFTER_SECONDS} seconds`,
          BUSY_RETRY_AFTER_SECONDS,
          'password_checks_busy',
        );
      }
      // The slot is handed over by the finishing hash, so `running` never drops below the bound while some wait.
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running += 1;
    }
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    }
  }
}
