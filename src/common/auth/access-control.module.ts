import { Global, Module } from '@nestjs/common';
import { AccessPolicy } from './access-policy';
import { UserCredentialRevocation } from './user-credential-revocation';

/** Makes the one {@link AccessPolicy} and the {@link UserCredentialRevocation} registry available to every module. */
@Global()
@Module({ providers: [AccessPolicy, UserCredentialRevocation], exports: [AccessPolicy, UserCredentialRevocation] })
export class AccessControlModule {}
