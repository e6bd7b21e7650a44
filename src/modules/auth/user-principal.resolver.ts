import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { capabilitiesOf } from '../../common/auth/capability-columns';
import type { Principal } from '../../common/auth/principal';
import { UserEntity } from '../users/user.entity';
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
    const user = await this.users.findOne({ where: { id: claims.id } });
    if (!user || !user.isActive) throw invalidCredentials();
    if (user.tokensInvalidatedAt && claims.iat < Math.floor(user.tokensInvalidatedAt.getTime() / 1000)) {
      throw invalidCredentials();
    }
    const [check] = (await this.users.query(
      `SELECT EXISTS (SELECT 1 FROM auth_sessions WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL) AS session_live,
              EXISTS (SELECT 1 FROM token_blocklist WHERE jti = $3) AS blocklisted`,
      [claims.sid, user.id, claims.jti],
    )) as SessionCheckRow[];
    if (!check.session_live || check.blocklisted) throw invalidCredentials();
    return {
      kind: 'user',
      id: user.id,
      name: user.username,
      role: user.role,
      organizationId: user.organizationId,
      capabilities: capabilitiesOf(user),
      session: { id: claims.sid, tokenId: claims.jti, expiresAt: new Date(claims.exp * 1000) },
    };
  }
}
