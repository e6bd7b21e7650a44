import { Injectable, OnModuleInit } from '@nestjs/common';
import { createHmac, randomBytes } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import type { Principal } from '../../common/auth/principal';
import { ApiTokenResolver } from '../../common/auth/api-token-resolver';
import { CredentialCache } from '../../common/auth/credential-cache';
import { PlatformAccessDenied } from '../../common/auth/platform-authenticator';
import { UserCredentialRevocation } from '../../common/auth/user-credential-revocation';
import { AppConfig } from '../../common/config/app-config';
import { preparedQuery } from '../../common/database/prepared-query';
import { NotFoundError } from '../../common/errors/common-errors';
import { UserEntity } from '../../modules/users/user.entity';
import { principalOfUser, USER_RECORD_COLUMNS, userRecordOfRow, UserRecordRow } from '../../modules/users/user-principal';
import { AuthService } from '../../modules/auth/auth.service';
import { parseScalarInput } from '../framework/resource/field-input';
import { FieldErrors, ResourceValidationError } from '../framework/resource/resource-errors';
import { pageLinks, parsePagination } from '../framework/query/pagination';
import type { QueryParameters } from '../framework/query/filter-parser';
import type { RequestScope, ListEnvelope } from '../framework/resource/resource.service';
import { API_TOKEN_TABLE, ApiTokenRow } from './api-token.entity';

/** last_used is written at most this often per token, so a busy token costs no write per request. */
const LAST_USED_RESOLUTION_MS = 60_000;
const KEY_PATTERN = /^[0-9a-f]{40}$/;
const DAY_MS = 86_400_000;

/** A token's row beside its user's: what authenticating by that token needs. */
type ResolvedToken = UserRecordRow & { token_id: number } & Pick<ApiTokenRow, 'expires' | 'last_used' | 'write_enabled'>;

type TokenInput = { expires?: Date | null; description?: string; write_enabled?: boolean; user_id?: number };

/**
 * NetBox's API tokens: 40 hexadecimal characters, shown once when created, stored as an HMAC under
 * the server's token pepper and found by that digest. A token acts as its user, and only reads when
 * `write_enabled` is false. Non-superusers see and manage only their own tokens. A token without
 * an expiry gets API_TOKEN_DEFAULT_EXPIRY_DAYS; a user's tokens are deleted when all their sessions
 * end (password change, deactivation, POST /auth/invalidate).
 */
@Injectable()
export class ApiTokensService extends ApiTokenResolver implements OnModuleInit {
  constructor(
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
    private readonly auth: AuthService,
    private readonly credentials: UserCredentialRevocation,
    private readonly cache: CredentialCache,
  ) {
    super();
  }

  onModuleInit(): void {
    this.credentials.register(async (manager, userId) => {
      await manager.query(`DELETE FROM ${API_TOKEN_TABLE} WHERE user_id = $1`, [userId]);
    });
  }

  /**
   * The token and its user in one statement (the FK deletes a user's tokens with the user), kept in
   * the {@link CredentialCache} under the key's digest: a change to the token or its user is
   * notified by the database and drops it on every replica. Expiry is checked on every request.
   */
  async resolve(key: string): Promise<Principal> {
    if (!KEY_PATTERN.test(key)) throw new PlatformAccessDenied('Invalid token');
    const digest = this.digest(key);
    const token = await this.cache.through(
      `token:${digest}`,
      () => this.check(digest),
      (row) => row.id,
    );
    if (token.expires && token.expires.getTime() <= Date.now()) throw new PlatformAccessDenied('Token expired');
    if (!token.last_used || Date.now() - token.last_used.getTime() >= LAST_USED_RESOLUTION_MS) {
      await this.dataSource.query(`UPDATE ${API_TOKEN_TABLE} SET last_used = now() WHERE id = $1`, [token.token_id]);
      token.last_used = new Date();
    }
    return principalOfUser(userRecordOfRow(token), { apiToken: { id: token.token_id, writeEnabled: token.write_enabled } });
  }

  private async check(digest: string): Promise<ResolvedToken> {
    const [row] = (await preparedQuery(
      this.dataSource.manager,
      `SELECT t.id AS token_id, t.expires, t.last_used, t.write_enabled, ${USER_RECORD_COLUMNS}
         FROM ${API_TOKEN_TABLE} t JOIN users u ON u.id = t.user_id
        WHERE t.key_digest = $1`,
      [digest],
    )) as ResolvedToken[];
    if (!row) throw new PlatformAccessDenied('Invalid token');
    if (row.expires && row.expires.getTime() <= Date.now()) throw new PlatformAccessDenied('Token expired');
    if (!row.is_active) throw new PlatformAccessDenied('User inactive');
    return row;
  }

  async list(query: QueryParameters, scope: RequestScope): Promise<ListEnvelope> {
    const pagination = parsePagination(query, { defaultLimit: 50, maxLimit: 1000 });
    const own = scope.principal.role !== 'superuser';
    const where = own ? 'WHERE t.user_id = $1' : '';
    const params: unknown[] = own ? [scope.principal.id] : [];
    const [{ count }] = (await this.dataSource.query(`SELECT COUNT(*)::int AS count FROM ${API_TOKEN_TABLE} t ${where}`, params)) as Array<{
      count: number;
    }>;
    const page = `${where} ORDER BY t.id LIMIT $${params.length + 1} OFFSET $${params.length + 2}`;
    const rows = await this.rows(this.dataSource.manager, page, [...params, pagination.limit, pagination.offset]);
    return {
      count,
      ...pageLinks({ requestUrl: scope.requestUrl, count, ...pagination }),
      results: rows.map((row) => this.represent(row, scope.baseUrl)),
    };
  }

  async retrieve(id: number, scope: RequestScope): Promise<Record<string, unknown>> {
    return this.represent(await this.visible(this.dataSource.manager, id, scope.principal), scope.baseUrl);
  }

  async create(body: unknown, scope: RequestScope): Promise<Record<string, unknown>> {
    const input = this.readInput(body, true);
    const userId = input.user_id ?? scope.principal.id;
    if (userId !== scope.principal.id && scope.principal.role !== 'superuser') {
      throw new PlatformAccessDenied('Only superusers may create tokens for other users.');
    }
    const exists = (await this.dataSource.query('SELECT 1 FROM users WHERE id = $1', [userId])) as unknown[];
    if (exists.length === 0)
      throw new ResourceValidationError({ user: [`Related object not found using the provided numeric ID: ${userId}`] });
    return this.issue(userId, input, scope.baseUrl);
  }

  /** `POST /api/users/tokens/provision/`: username and password in, a new token (shown once) out. */
  async provision(body: unknown, clientAddress: string, baseUrl: string): Promise<Record<string, unknown>> {
    const credentials = (typeof body === 'object' && body !== null ? body : {}) as { username?: unknown; password?: unknown };
    const errors: FieldErrors = {};
    if (typeof credentials.username !== 'string' || credentials.username === '') errors.username = ['This field is required.'];
    if (typeof credentials.password !== 'string' || credentials.password === '') errors.password = ['This field is required.'];
    if (Object.keys(errors).length > 0) throw new ResourceValidationError(errors);
    const input = this.readInput(body, true);
    let user: UserEntity;
    try {
      user = await this.auth.verifyCredentials(credentials.username as string, credentials.password as string, clientAddress);
    } catch (error) {
      if (error instanceof Error && 'kind' in error && error.kind === 'unauthenticated')
        throw new PlatformAccessDenied('Invalid user credentials.');
      throw error;
    }
    return this.issue(user.id, { ...input, user_id: user.id }, baseUrl);
  }

  async update(id: number, body: unknown, scope: RequestScope): Promise<Record<string, unknown>> {
    return this.dataSource.transaction(async (manager) => {
      await this.visible(manager, id, scope.principal);
      const input = this.readInput(body, false);
      const sets: string[] = [];
      const values: unknown[] = [id];
      for (const [column, value] of Object.entries(input)) {
        values.push(value);
        sets.push(`${column} = $${values.length}`);
      }
      if (sets.length > 0) await manager.query(`UPDATE ${API_TOKEN_TABLE} SET ${sets.join(', ')} WHERE id = $1`, values);
      return this.represent(await this.visible(manager, id, scope.principal), scope.baseUrl);
    });
  }

  async delete(id: number, scope: RequestScope): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      await this.visible(manager, id, scope.principal);
      await manager.query(`DELETE FROM ${API_TOKEN_TABLE} WHERE id = $1`, [id]);
    });
  }

  private async issue(userId: number, input: TokenInput, baseUrl: string): Promise<Record<string, unknown>> {
    const key = randomBytes(20).toString('hex');
    const days = this.config.apiTokenDefaultExpiryDays;
    const expires = input.expires === undefined && days > 0 ? new Date(Date.now() + days * DAY_MS) : input.expires;
    const [{ id }] = (await this.dataSource.query(
      `INSERT INTO ${API_TOKEN_TABLE} (user_id, key_digest, key_suffix, expires, write_enabled, description)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
      [userId, this.digest(key), key.slice(-4), expires ?? null, input.write_enabled ?? true, input.description ?? ''],
    )) as Array<{ id: number }>;
    const [row] = await this.rows(this.dataSource.manager, 'WHERE t.id = $1', [id]);
    // The key is returned this once; only its digest is kept.
    return { ...this.represent(row, baseUrl), key };
  }

  private readInput(body: unknown, creating: boolean): TokenInput {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new ResourceValidationError({ non_field_errors: ['Invalid data. Expected a dictionary.'] });
    }
    const raw = body as Record<string, unknown>;
    const errors: FieldErrors = {};
    const input: TokenInput = {};
    const read = (name: keyof TokenInput, field: Parameters<typeof parseScalarInput>[0]) => {
      if (!Object.hasOwn(raw, name)) return;
      const result = parseScalarInput(field, raw[name]);
      if ('problem' in result) errors[name] = [result.problem];
      else (input as Record<string, unknown>)[name] = result.value;
    };
    read('expires', { kind: 'datetime', nullable: true });
    if (input.expires === null && this.config.apiTokenDefaultExpiryDays > 0) {
      errors.expires = [`Tokens must expire; leave it out for ${this.config.apiTokenDefaultExpiryDays} days from now.`];
    }
    read('description', { kind: 'text', maxLength: 200 });
    read('write_enabled', { kind: 'boolean', default: true });
    if (creating && Object.hasOwn(raw, 'user')) {
      const user = raw.user;
      const id = typeof user === 'object' && user !== null ? (user as { id?: unknown }).id : user;
      if (typeof id === 'number' && Number.isSafeInteger(id) && id > 0) input.user_id = id;
      else errors.user = ['Incorrect type. Expected pk value.'];
    } else if (Object.hasOwn(raw, 'user')) {
      errors.user = ['A token cannot be moved to another user.'];
    }
    if (Object.keys(errors).length > 0) throw new ResourceValidationError(errors);
    return input;
  }

  private async visible(manager: EntityManager, id: number, principal: Principal): Promise<ApiTokenRow & { username: string }> {
    const [row] = await this.rows(manager, 'WHERE t.id = $1', [id]);
    if (!row || (principal.role !== 'superuser' && row.user_id !== principal.id)) throw new NotFoundError('Not found.');
    return row;
  }

  private async rows(manager: EntityManager, clause: string, params: unknown[]): Promise<Array<ApiTokenRow & { username: string }>> {
    return (await manager.query(
      `SELECT t.*, u.username FROM ${API_TOKEN_TABLE} t JOIN users u ON u.id = t.user_id ${clause}`,
      params,
    )) as Array<ApiTokenRow & { username: string }>;
  }

  private represent(row: ApiTokenRow & { username: string }, baseUrl: string): Record<string, unknown> {
    return {
      id: row.id,
      url: `${baseUrl}/api/users/tokens/${row.id}/`,
      display: `**********${row.key_suffix}`,
      user: { id: row.user_id, url: `${baseUrl}/api/users/users/${row.user_id}/`, display: row.username, username: row.username },
      created: row.created.toISOString(),
      expires: row.expires?.toISOString() ?? null,
      last_used: row.last_used?.toISOString() ?? null,
      write_enabled: row.write_enabled,
      description: row.description,
    };
  }

  private digest(key: string): string {
    return createHmac('sha256', this.config.serviceAccountTokenPepper).update(key, 'utf8').digest('hex');
  }
}
