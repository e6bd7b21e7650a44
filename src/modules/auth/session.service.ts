import { Injectable } from '@nestjs/common';
import { createHash, randomBytes } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { UserCredentialRevocation } from '../../common/auth/user-credential-revocation';
import { AppConfig } from '../../common/config/app-config';
import { UserEntity } from '../users/user.entity';
import { AccessTokenService } from './access-token.service';
import { BlocklistedTokenEntity } from './blocklisted-token.entity';
import { RefreshTokenEntity } from './refresh-token.entity';
import { SessionEntity } from './session.entity';

export type SessionRevocationReason = 'logout' | 'invalidate' | 'password_change' | 'deactivated' | 'refresh_token_reuse';

export interface TokenPair {
  access_token: string;
  token_type: 'bearer';
  refresh_token: string;
  /** Seconds until the access token expires (OAuth 2.0). */
  expires_in: number;
}

export type RotationResult =
  | { outcome: 'rotated'; tokens: TokenPair; user: UserEntity }
  | { outcome: 'invalid' }
  | { outcome: 'reused'; sessionId: string; user: UserEntity | null };

export function hashRefreshToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/**
 * Sessions and their tokens. Every method takes the caller's transaction manager: the operations
 * that change sessions (login, refresh, logout, password change) each happen in one transaction.
 */
@Injectable()
export class SessionService {
  constructor(
    private readonly config: AppConfig,
    private readonly accessTokens: AccessTokenService,
    private readonly credentials: UserCredentialRevocation,
  ) {}

  async open(manager: EntityManager, user: UserEntity): Promise<TokenPair> {
    const session = await manager.save(SessionEntity, manager.create(SessionEntity, { userId: user.id }));
    return this.issue(manager, user, session.id);
  }

  /**
   * Consumes a refresh token with one conditional UPDATE: of any number of concurrent calls with
   * the same token exactly one matches the row. A token that exists but was already consumed is
   * reuse (a stolen token, or a replay): the caller must revoke the session.
   */
  async rotate(manager: EntityManager, refreshToken: string): Promise<RotationResult> {
    const tokenHash = hashRefreshToken(refreshToken);
    const consumed = await manager
      .createQueryBuilder()
      .update(RefreshTokenEntity)
      .set({ consumedAt: () => 'now()' })
      .where('token_hash = :tokenHash AND consumed_at IS NULL AND expires_at > now()', { tokenHash })
      .andWhere('session_id IN (SELECT id FROM auth_sessions WHERE revoked_at IS NULL)')
      .returning('session_id')
      .execute();
    const rows = consumed.raw as Array<{ session_id: string }>;
    if (rows.length === 1) {
      const sessionId = rows[0].session_id;
      const user = await this.sessionUser(manager, sessionId);
      if (!user?.isActive) return { outcome: 'invalid' };
      return { outcome: 'rotated', tokens: await this.issue(manager, user, sessionId), user };
    }
    const known = await manager.findOne(RefreshTokenEntity, { where: { tokenHash } });
    if (known?.consumedAt) {
      return { outcome: 'reused', sessionId: known.sessionId, user: await this.sessionUser(manager, known.sessionId) };
    }
    return { outcome: 'invalid' };
  }

  async revoke(manager: EntityManager, sessionId: string, reason: SessionRevocationReason): Promise<void> {
    await manager
      .createQueryBuilder()
      .update(SessionEntity)
      .set({ revokedAt: () => 'now()', revokedReason: reason })
      .where('id = :sessionId AND revoked_at IS NULL', { sessionId })
      .execute();
  }

  /**
   * Ends every session of a user, rejects every access token issued before now and revokes the
   * user's other registered credentials (platform API tokens): password change, deactivation,
   * POST /auth/invalidate.
   */
  async revokeAllOfUser(manager: EntityManager, userId: number, reason: SessionRevocationReason): Promise<void> {
    await manager
      .createQueryBuilder()
      .update(SessionEntity)
      .set({ revokedAt: () => 'now()', revokedReason: reason })
      .where('user_id = :userId AND revoked_at IS NULL', { userId })
      .execute();
    await manager.update(UserEntity, { id: userId }, { tokensInvalidatedAt: () => 'now()' });
    await this.credentials.revokeAll(manager, userId);
  }

  async blocklist(manager: EntityManager, jti: string, expiresAt: Date): Promise<void> {
    await manager.createQueryBuilder().insert().into(BlocklistedTokenEntity).values({ jti, expiresAt }).orIgnore().execute();
  }

  /** Deletes what can no longer matter: expired blocklist entries, tokens and ended sessions. */
  async purgeExpired(manager: EntityManager): Promise<void> {
    await manager.createQueryBuilder().delete().from(BlocklistedTokenEntity).where('expires_at <= now()').execute();
    await manager.createQueryBuilder().delete().from(RefreshTokenEntity).where('expires_at <= now()').execute();
    // A session with no live refresh token can never be used again once its last access token expires.
    await manager
      .createQueryBuilder()
      .delete()
      .from(SessionEntity)
      .where('created_at <= now() - make_interval(mins => :minutes)', { minutes: this.config.accessTokenExpireMinutes })
      .andWhere('NOT EXISTS (SELECT 1 FROM refresh_tokens t WHERE t.session_id = auth_sessions.id)')
      .execute();
  }

  private async issue(manager: EntityManager, user: UserEntity, sessionId: string): Promise<TokenPair> {
    const refreshToken = randomBytes(32).toString('base64url');
    await manager.insert(RefreshTokenEntity, {
      sessionId,
      tokenHash: hashRefreshToken(refreshToken),
      expiresAt: new Date(Date.now() + this.config.refreshTokenExpireMinutes * 60_000),
    });
    const access = this.accessTokens.sign(user, sessionId);
    return {
      access_token: access.token,
      token_type: 'bearer',
      refresh_token: refreshToken,
      expires_in: access.claims.exp - access.claims.iat,
    };
  }

  private async sessionUser(manager: EntityManager, sessionId: string): Promise<UserEntity | null> {
    const session = await manager.findOne(SessionEntity, { where: { id: sessionId }, relations: { user: true } });
    return session?.user ?? null;
  }
}
