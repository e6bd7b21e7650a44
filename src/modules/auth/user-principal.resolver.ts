import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CredentialCache } from '../../common/auth/credential-cache';
import type { Principal } from '../../common/auth/principal';
import { preparedQuery } from '../../common/database/prepared-query';
import { principalOfUser, UserRecord, USER_RECORD_COLUMNS, userRecordOfRow, UserRecordRow } from '../users/user-principal';
import { AccessTokenClaims, AccessTokenService, invalidCredentials } from './access-token.service';

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
 * once. A check that passed is kept in the {@link CredentialCache} under the token's id, which every
 * replica drops when the database notifies a change to the user, its sessions or the blocklist.
 *
 * A prepared statement of plain SQL rather than a query builder: this runs on every authenticated
 * request, and building, mapping and planning the query cost several times running it.
 */
@Injectable()
export class UserPrincipalResolver {
  constructor(
    private readonly accessTokens: AccessTokenService,
    private readonly dataSource: DataSource,
    private readonly cache: CredentialCache,
  ) {}

  async resolve(credential: string): Promise<Principal> {
    // The signature and expiry are checked on every request; only the database's verdict is kept.
    const claims = this.accessTokens.verify(credential);
    const user = await this.cache.through(
      `jwt:${claims.jti}`,
      () => this.check(claims),
      (record) => record.id,
    );
    return principalOfUser(user, { session: { id: claims.sid, tokenId: claims.jti, expiresAt: new Date(claims.exp * 1000) } });
  }

  private async check(claims: AccessTokenClaims): Promise<UserRecord> {
    const [row] = await preparedQuery<ResolveRow>(this.dataSource.manager, RESOLVE_SQL, [claims.id, claims.sid, claims.jti]);
    if (!row || !row.is_active || !row.session_live || row.blocklisted) throw invalidCredentials();
    if (row.tokens_invalidated_at && claims.iat < Math.floor(row.tokens_invalidated_at.getTime() / 1000)) {
      throw invalidCredentials();
    }
    return userRecordOfRow(row);
  }
}
