import { Global, Module } from '@nestjs/common';
import { AccessPolicy } from './access-policy';

/** Makes the one {@link AccessPolicy} available to every module. */
@Global()
@Module({ providers: [AccessPolicy], exports: [AccessPolicy] })
export class AccessControlModule {}
