import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Principal } from '../../common/auth/principal';
import { preparedQuery } from '../../common/database/prepared-query';
import { principalOfUser, USER_RECORD_COLUMNS, userRecordOfRow, UserRecordRow } from '../users/user-principal';
import { AccessTokenService, invalidCredentials } from './access-token.service';

/** The user row and both session checks in one statement: the one query of an authenticated request. */
const RESOLVE_SQL = `
  SELECT ${USER_RECORD_COLUMNS},
         EXISTS (SELECT 1 FROM auth_sessions s WHERE s.id = $2 AND s.user_id = u.id AND s.revoked_at IS NULL) AS session_live,
         EXISTS (SELECT 1 FROM token_blocklist b WHERE b.jti = $3) AS blocklisted
    FROM users u
   WHERE u.id = $1`;

interface ResolveRow extends UserRecordRow {
  session_live: boolean;
  blocklisted: boolean;
}

/**
 * Resolves a user's access token. The signature proves who issued it; the database decides
 * whether it still counts: the user exists and is active, the token was not issued before an
 * invalidation, its session is not revoked and its id is not blocklisted. Role, organization and
 * capabilities come from the current user row, not from the token, so a demotion takes effect at
 * once. Nothing is cached between requests, so a revocation by any process counts at once in all.
 *
 * A prepared statement of plain SQL rather than a query builder: this runs on every authenticated
 * request, and building, mapping and planning the query cost several times running it.
 */
@Injectable()
export class UserPrincipalResolver {
  constructor(
    private readonly accessTokens: AccessTokenService,
    private readonly dataSource: DataSource,
  ) {}

  async resolve(credential: string): Promise<Principal> {
    const claims = this.accessTokens.verify(credential);
    const [row] = await preparedQuery<ResolveRow>(this.dataSource.manager, RESOLVE_SQL, [claims.id, claims.sid, claims.jti]);
    if (!row || !row.is_active || !row.session_live || row.blocklisted) throw invalidCredentials();
    if (row.tokens_invalidated_at && claims.iat < Math.floor(row.tokens_invalidated_at.getTime() / 1000)) {
      throw invalidCredentials();
    }
    return principalOfUser(userRecordOfRow(row), {
      session: { id: claims.sid, tokenId: claims.jti, expiresAt: new Date(claims.exp * 1000) },
    });
  }
}
