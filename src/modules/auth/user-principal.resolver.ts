import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import type { Principal } from '../../common/auth/principal';
import { UserEntity } from '../users/user.entity';
import { principalOfUser } from '../users/user-principal';
import { AccessTokenService, invalidCredentials } from './access-token.service';

interface SessionCheckRow {
  session_live: boolean;
  blocklisted: boolean;
}

/**
 * Resolves a user's access token. The signature proves who issued it; the database decides
 * whether it still counts: the user exists and is active, the token was not issued before an
 * invalidation, its session is not revoked and its id is not blocklisted. Role, organization and
 * capabilities come from the current user row, not from the token, so a demotion takes effect at once.
 */
@Injectable()
export class UserPrincipalResolver {
  constructor(
    private readonly accessTokens: AccessTokenService,
    @InjectRepository(UserEntity) private readonly users: Repository<UserEntity>,
  ) {}

  async resolve(credential: string): Promise<Principal> {
    const claims = this.accessTokens.verify(credential);
    // One round trip per request: the user row and the two session checks together.
    const { entities, raw } = await this.users
      .createQueryBuilder('u')
      .addSelect('EXISTS (SELECT 1 FROM auth_sessions s WHERE s.id = :sid AND s.user_id = u.id AND s.revoked_at IS NULL)', 'session_live')
      .addSelect('EXISTS (SELECT 1 FROM token_blocklist b WHERE b.jti = :jti)', 'blocklisted')
      .where('u.id = :id', { id: claims.id, sid: claims.sid, jti: claims.jti })
      .getRawAndEntities<SessionCheckRow>();
    const [user] = entities;
    const [check] = raw;
    if (!user || !user.isActive || !check.session_live || check.blocklisted) throw invalidCredentials();
    if (user.tokensInvalidatedAt && claims.iat < Math.floor(user.tokensInvalidatedAt.getTime() / 1000)) {
      throw invalidCredentials();
    }
    return principalOfUser(user, { session: { id: claims.sid, tokenId: claims.jti, expiresAt: new Date(claims.exp * 1000) } });
  }
}
