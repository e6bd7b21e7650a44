import { capabilitiesOf } from '../../common/auth/capability-columns';
import type { Principal } from '../../common/auth/principal';
import type { UserEntity } from './user.entity';

/** The principal of a user row: role, organization and capabilities as stored now, never as a token claimed. */
export function principalOfUser(user: UserEntity, extra: Pick<Principal, 'session' | 'apiToken'> = {}): Principal {
  return {
    kind: 'user',
    id: user.id,
    name: user.username,
    role: user.role,
    organizationId: user.organizationId,
    capabilities: capabilitiesOf(user),
    ...extra,
  };
}
