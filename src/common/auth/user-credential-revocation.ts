import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/** Revokes, inside the caller's transaction, credentials of one kind that a user holds. */
export type UserCredentialRevoker = (manager: EntityManager, userId: number) => Promise<void>;

/**
 * Credentials issued outside the session store (the platform's API tokens) register here, so that
 * ending all of a user's sessions ends them too without the identity module knowing their tables.
 */
@Injectable()
export class UserCredentialRevocation {
  private readonly revokers: UserCredentialRevoker[] = [];

  register(revoker: UserCredentialRevoker): void {
    this.revokers.push(revoker);
  }

  async revokeAll(manager: EntityManager, userId: number): Promise<void> {
    for (const revoker of this.revokers) await revoker(manager, userId);
  }
}
