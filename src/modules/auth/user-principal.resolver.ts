import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Principal, Role } from '../../common/auth/principal';
import { principalOfUser, UserRecord } from '../users/user-principal';
import { AccessTokenService, invalidCredentials } from './access-token.service';

/** The user row and both session checks in one statement: the one query of an authenticated request. */
const RESOLVE_SQL = `
  SELECT u.id, u.username, u.email, u.role, u.is_active, u.organization_id, u.tokens_invalidated_at,
         u.can_create_ca, u.can_create_cert, u.can_revoke_cert, u.can_export_private_key, u.can_delete_ca,
         u.created_at, u.updated_at,
         EXISTS (SELECT 1 FROM auth_sessions s WHERE s.id = $2 AND s.user_id = u.id AND s.revoked_at IS NULL) AS session_live,
         EXISTS (SELECT 1 FROM token_blocklist b WHERE b.jti = $3) AS blocklisted
    FROM users u
   WHERE u.id = $1`;

interface ResolveRow {
  id: number;
  username: string;
  email: string;
  role: Role;
  is_active: boolean;
  organization_id: number | null;
  tokens_invalidated_at: Date | null;
  can_create_ca: boolean;
  can_create_cert: boolean;
  can_revoke_cert: boolean;
  can_export_private_key: boolean;
  can_delete_ca: boolean;
  created_at: Date;
  updated_at: Date;
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
 * Plain SQL rather than a query builder: this runs on every authenticated request, and building
 * and mapping the query through TypeORM cost several times the query itself.
 */
@Injectable()
export class UserPrincipalResolver {
  constructor(
    private readonly accessTokens: AccessTokenService,
    private readonly dataSource: DataSource,
  ) {}

  async resolve(credential: string): Promise<Principal> {
    const claims = this.accessTokens.verify(credential);
    const [row] = (await this.dataSource.query(RESOLVE_SQL, [claims.id, claims.sid, claims.jti])) as ResolveRow[];
    if (!row || !row.is_active || !row.session_live || row.blocklisted) throw invalidCredentials();
    if (row.tokens_invalidated_at && claims.iat < Math.floor(row.tokens_invalidated_at.getTime() / 1000)) {
      throw invalidCredentials();
    }
    return principalOfUser(userRecordOf(row), {
      session: { id: claims.sid, tokenId: claims.jti, expiresAt: new Date(claims.exp * 1000) },
    });
  }
}

function userRecordOf(row: ResolveRow): UserRecord {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    role: row.role,
    isActive: row.is_active,
    organizationId: row.organization_id,
    tokensInvalidatedAt: row.tokens_invalidated_at,
    canCreateCa: row.can_create_ca,
    canCreateCert: row.can_create_cert,
    canRevokeCert: row.can_revoke_cert,
    canExportPrivateKey: row.can_export_private_key,
    canDeleteCa: row.can_delete_ca,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
