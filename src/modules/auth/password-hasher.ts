import { Injectable } from '@nestjs/common';
import * as argon2 from 'argon2';

/**
 * argon2id password hashing. `verifyNothing` spends the same work as a real verification, so a
 * login for an unknown user takes as long as one with a wrong password.
 */
@Injectable()
export class PasswordHasher {
  private readonly decoy: Promise<string> = argon2.hash('decoy password for unknown users', { type: argon2.argon2id });

  hash(password: string): Promise<string> {
    return argon2.hash(password, { type: argon2.argon2id });
  }

  async verify(hash: string, password: string): Promise<boolean> {
    try {
      return await argon2.verify(hash, password);
    } catch {
      return false;
    }
  }

  async verifyNothing(password: string): Promise<false> {
    await this.verify(await this.decoy, password);
    return false;
  }
}
