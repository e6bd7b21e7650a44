import { capabilitiesOf } from '../../common/auth/capability-columns';
import type { Principal, Role } from '../../common/auth/principal';
import type { UserEntity } from './user.entity';

/** A user row as the API shows it: everything but the password hash and relations. */
export type UserRecord = Omit<UserEntity, 'passwordHash' | 'organization'>;

/** The columns of a {@link UserRecord}, for statements that read a user (as `u`) beside other rows. */
export const USER_RECORD_COLUMNS = `u.id, u.username, u.email, u.role, u.is_active, u.organization_id, u.tokens_invalidated_at,
  u.can_create_ca, u.can_create_cert, u.can_revoke_cert, u.can_export_private_key, u.can_delete_ca, u.created_at, u.updated_at`;

/** A row holding {@link USER_RECORD_COLUMNS}. */
export interface UserRecordRow {
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
}

export function userRecordOfRow(row: UserRecordRow): UserRecord {
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

/**
 * The row each user principal was built from, held per Principal object (so for as long as its
 * request): GET /users/me answers from the row its authentication just read instead of reading it
 * again.
 */
const rowsOfPrincipals = new WeakMap<Principal, UserRecord>();

/** The principal of a user row: role, organization and capabilities as stored now, never as a token claimed. */
export function principalOfUser(user: UserRecord, extra: Pick<Principal, 'session' | 'apiToken'> = {}): Principal {
  const principal: Principal = {
    kind: 'user',
    id: user.id,
    name: user.username,
    role: user.role,
    organizationId: user.organizationId,
    capabilities: capabilitiesOf(user),
    ...extra,
  };
  rowsOfPrincipals.set(principal, user);
  return principal;
}

/** The user row a principal was built from in this request, if it was built from one. */
export function userRowOf(principal: Principal): UserRecord | undefined {
  return rowsOfPrincipals.get(principal);
}
