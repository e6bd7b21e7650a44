import { Injectable } from '@nestjs/common';
import type { Principal } from '../../common/auth/principal';
import { PrincipalResolver } from '../../common/auth/principal-resolver';
import { TOKEN_PREFIX } from '../service-accounts/service-account-token.codec';
import { ServiceAccountTokenResolver } from '../service-accounts/service-account-token.resolver';
import { UserPrincipalResolver } from './user-principal.resolver';

/** One bearer credential, two kinds of caller: `pki_sa_…` tokens are service accounts, the rest user JWTs. */
@Injectable()
export class BearerPrincipalResolver extends PrincipalResolver {
  constructor(
    private readonly users: UserPrincipalResolver,
    private readonly serviceAccounts: ServiceAccountTokenResolver,
  ) {
    super();
  }

  resolve(credential: string): Promise<Principal> {
    return credential.startsWith(TOKEN_PREFIX) ? this.serviceAccounts.resolve(credential) : this.users.resolve(credential);
  }
}
