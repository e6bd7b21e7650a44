import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import { Principal } from '../../common/auth/principal';
import { TooManyRequestsError, UnauthenticatedError } from '../../common/errors/common-errors';
import { AuditService } from '../audit/audit.service';
import { UserEntity } from '../users/user.entity';
import { principalOfUser } from '../users/user-principal';
import { LoginRateLimiter } from './login-rate-limiter';
import { PasswordHasher } from './password-hasher';
import { SessionService, TokenPair } from './session.service';
import { Metrics } from '../../common/metrics/metrics';

@Injectable()
export class AuthService {
  constructor(
    private readonly dataSource: DataSource,
    @InjectRepository(UserEntity) private readonly users: Repository<UserEntity>,
    private readonly sessions: SessionService,
    private readonly hasher: PasswordHasher,
    private readonly rateLimiter: LoginRateLimiter,
    private readonly audit: AuditService,
    private readonly metrics: Metrics,
  ) {}

  /**
   * Checks a username and password (also for platform token provisioning). Unknown user, wrong
   * password and inactive user get the same 401 after the same amount of hashing work. The attempt
   * is counted as a failure before the password is checked and forgiven when it succeeds, so
   * parallel guesses cannot slip past the limit.
   */
  async verifyCredentials(username: string, password: string, clientAddress: string): Promise<UserEntity> {
    const reservation = await this.rateLimiter.reserve(clientAddress, username).catch((error: unknown) => {
      if (error instanceof TooManyRequestsError) this.metrics.loginFailures.inc({ reason: 'rate_limited' });
      throw error;
    });
    let user: UserEntity | null;
    let passwordMatches: boolean;
    try {
      user = await this.users.findOne({ where: { username } });
      passwordMatches = user ? await this.hasher.verify(user.passwordHash, password) : await this.hasher.verifyNothing(password);
    } catch (error) {
      // Not checked (hashing busy, database gone): no failure to count. A release that fails too leaves one counted.
      await this.rateLimiter.release(reservation).catch(() => undefined);
      if (error instanceof TooManyRequestsError) this.metrics.loginFailures.inc({ reason: 'rate_limited' });
      throw error;
    }
    if (user && passwordMatches && user.isActive) {
      await this.rateLimiter.release(reservation);
      return user;
    }
    await this.dataSource.transaction((manager) =>
      this.audit.record(manager, {
        action: 'login_failure',
        actor: null,
        username,
        organizationId: user?.organizationId ?? null,
        detail: `Failed login for '${username}'`,
      }),
    );
    this.metrics.loginFailures.inc({ reason: 'invalid_credentials' });
    throw new UnauthenticatedError('Incorrect username or password', 'invalid_credentials');
  }

  /** Password login: a new session. */
  async login(username: string, password: string, clientAddress: string): Promise<TokenPair> {
    const user = await this.verifyCredentials(username, password, clientAddress);
    return this.dataSource.transaction(async (manager) => {
      const tokens = await this.sessions.open(manager, user);
      await this.audit.record(manager, {
        action: 'login_success',
        actor: userActor(user),
        organizationId: user.organizationId,
        resourceType: 'user',
        resourceId: user.id,
        detail: `User '${user.username}' logged in`,
      });
      return tokens;
    });
  }

  /** Rotates a refresh token; presenting a consumed one revokes its whole session. */
  async refresh(refreshToken: string): Promise<TokenPair> {
    const result = await this.dataSource.transaction(async (manager) => {
      const rotation = await this.sessions.rotate(manager, refreshToken);
      if (rotation.outcome === 'reused') {
        await this.sessions.revoke(manager, rotation.sessionId, 'refresh_token_reuse');
        await this.audit.record(manager, {
          action: 'refresh_token_reuse',
          actor: rotation.user ? userActor(rotation.user) : null,
          organizationId: rotation.user?.organizationId ?? null,
          resourceType: 'user',
          resourceId: rotation.user?.id ?? null,
          detail: 'A consumed refresh token was presented again; its session was revoked',
        });
      }
      return rotation;
    });
    if (result.outcome !== 'rotated') {
      throw new UnauthenticatedError('Invalid or expired refresh token', 'invalid_refresh_token');
    }
    return result.tokens;
  }

  /** Ends the caller's session and blocklists the access token it presented until it expires. */
  async logout(principal: Principal): Promise<void> {
    const session = requireSession(principal);
    await this.dataSource.transaction(async (manager) => {
      await this.sessions.revoke(manager, session.id, 'logout');
      await this.sessions.blocklist(manager, session.tokenId, session.expiresAt);
      await this.audit.record(manager, {
        action: 'logout',
        actor: principal,
        organizationId: principal.organizationId,
        resourceType: 'user',
        resourceId: principal.id,
      });
    });
  }

  /** Ends every session of the caller and rejects every access token issued before now. */
  async invalidateAll(principal: Principal): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      await this.sessions.revokeAllOfUser(manager, principal.id, 'invalidate');
      await this.audit.record(manager, {
        action: 'tokens_invalidate',
        actor: principal,
        organizationId: principal.organizationId,
        resourceType: 'user',
        resourceId: principal.id,
      });
    });
  }
}

/** A user as the actor of an audit entry, before a request principal exists (login). */
export function userActor(user: UserEntity): Principal {
  return principalOfUser(user);
}

function requireSession(principal: Principal): NonNullable<Principal['session']> {
  if (!principal.session) throw new UnauthenticatedError('This endpoint requires a user session', 'user_session_required');
  return principal.session;
}
