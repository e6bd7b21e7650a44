import { capabilitiesOf } from '../../common/auth/capability-columns';
import type { Principal } from '../../common/auth/principal';
import type { UserEntity } from './user.entity';

/** A user row as the API shows it: everything but the password hash and relations. */
export type UserRecord = Omit<UserEntity, 'passwordHash' | 'organization'>;

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
