import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { preparedQuery } from '../../common/database/prepared-query';

/** How long an unused nonce stays acceptable. */
const NONCE_LIFETIME = '1 hour';
/** Expired nonces are swept on every this many issued by a process. */
const SWEEP_EVERY = 200;

/**
 * Replay-Nonce values (RFC 8555 §6.5): random, stored, and deleted by the one request that uses them, so a nonce is
 * accepted once whichever replica it reaches.
 */
@Injectable()
export class AcmeNonces {
  private issued = 0;

  constructor(private readonly dataSource: DataSource) {}

  async issue(): Promise<string> {
    const value = randomBytes(16).toString('base64url');
    await preparedQuery(this.dataSource.manager, 'INSERT INTO acme_nonces (value) VALUES ($1)', [value]);
    if (++this.issued % SWEEP_EVERY === 0) {
      await preparedQuery(this.dataSource.manager, `DELETE FROM acme_nonces WHERE created_at < now() - interval '${NONCE_LIFETIME}'`, []);
    }
    return value;
  }

  /** True once for a nonce this server issued within its lifetime; false for any other value or a second use. */
  async consume(value: string): Promise<boolean> {
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(value)) return false;
    const rows = await preparedQuery<{ value: string }>(
      this.dataSource.manager,
      `DELETE FROM acme_nonces WHERE value = $1 AND created_at >= now() - interval '${NONCE_LIFETIME}' RETURNING value`,
      [value],
    );
    return rows.length === 1;
  }
}
