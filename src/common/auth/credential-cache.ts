import { Injectable, OnModuleDestroy, OnModuleInit, Optional } from '@nestjs/common';
import { DatabaseNotifications, NotificationSubscriber } from '../database/database-notifications';

/**
 * The channel the database notifies when a credential or its user changes (triggers on users,
 * auth_sessions, token_blocklist and users_token, migration CredentialChangeNotifications): the
 * payload is the user's id, or `*` for a change not tied to one user.
 */
export const CREDENTIALS_CHANNEL = 'credentials_changed';

/** Belt and braces: an entry is used for at most this long, whatever the notifications say. */
export const CREDENTIAL_CACHE_MAX_AGE_MS = 5_000;
/** Past this many entries the oldest goes first. */
const MAX_ENTRIES = 10_000;

interface Entry {
  userId: number;
  value: unknown;
  storedAt: number;
}

/**
 * Credential checks that passed, kept per process so an authenticated request need not read its
 * token, session and user again. Every change to those rows, whichever replica or tool makes it,
 * is notified by the database on commit and drops the user's entries here; while the notification
 * connection is down (so a change could go unheard) nothing is kept or served. A check that was
 * running when a notification arrived is not kept, since it may have read the rows before the change.
 * Refusals are never kept.
 */
@Injectable()
export class CredentialCache implements NotificationSubscriber, OnModuleInit, OnModuleDestroy {
  private readonly entries = new Map<string, Entry>();
  private hearing = false;
  /** Moves on every notification and connection change; a check stores its result only if it has not moved. */
  private generation = 0;

  constructor(@Optional() private readonly notifications?: DatabaseNotifications) {}

  onModuleInit(): void {
    this.notifications?.subscribe(CREDENTIALS_CHANNEL, this);
  }

  async onModuleDestroy(): Promise<void> {
    await this.notifications?.unsubscribe(CREDENTIALS_CHANNEL, this);
    this.deaf();
  }

  /**
   * The value kept under `key`, else `check()`'s, kept for `ownerOf` its user when notifications are
   * heard and none arrived while it ran. `check` throws to refuse; a refusal is not kept.
   */
  async through<T>(key: string, check: () => Promise<T>, ownerOf: (value: T) => number): Promise<T> {
    const entry = this.entries.get(key);
    if (entry) {
      if (this.hearing && Date.now() - entry.storedAt < CREDENTIAL_CACHE_MAX_AGE_MS) return entry.value as T;
      this.entries.delete(key);
    }
    const generation = this.generation;
    const value = await check();
    if (this.hearing && generation === this.generation) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
      this.entries.set(key, { userId: ownerOf(value), value, storedAt: Date.now() });
    }
    return value;
  }

  notified(payload: string): void {
    this.generation++;
    const userId = /^\d+$/.test(payload) ? Number(payload) : undefined;
    if (userId === undefined) {
      this.entries.clear();
      return;
    }
    for (const [key, entry] of this.entries) if (entry.userId === userId) this.entries.delete(key);
  }

  listening(): void {
    this.generation++;
    this.entries.clear();
    this.hearing = true;
  }

  deaf(): void {
    this.generation++;
    this.hearing = false;
    this.entries.clear();
  }
}
