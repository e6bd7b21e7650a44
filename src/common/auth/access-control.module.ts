import { Global, Module } from '@nestjs/common';
import { AccessPolicy } from './access-policy';
import { CredentialCache } from './credential-cache';
import { UserCredentialRevocation } from './user-credential-revocation';

/**
 * Makes the one {@link AccessPolicy}, the {@link UserCredentialRevocation} registry and the process's
 * {@link CredentialCache} available to every module.
 */
@Global()
@Module({
  providers: [AccessPolicy, UserCredentialRevocation, CredentialCache],
  exports: [AccessPolicy, UserCredentialRevocation, CredentialCache],
})
export class AccessControlModule {}
