import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthenticationGuard } from '../../common/auth/authentication.guard';
import { PlatformAuthenticator } from '../../common/auth/platform-authenticator';
import { PrincipalResolver } from '../../common/auth/principal-resolver';
import { AuditModule } from '../audit/audit.module';
import { ServiceAccountsModule } from '../service-accounts/service-accounts.module';
import { UserEntity } from '../users/user.entity';
import { AccessTokenService } from './access-token.service';
import { AuthHousekeeping } from './auth-housekeeping.service';
import { BearerPrincipalResolver } from './bearer-principal.resolver';
import { AuthController } from './auth.controller';
import { AuthService } from './auth.service';
import { BlocklistedTokenEntity } from './blocklisted-token.entity';
import { LoginFailureEntity } from './login-failure.entity';
import { LoginRateLimiter } from './login-rate-limiter';
import { PasswordHasher } from './password-hasher';
import { RefreshTokenEntity } from './refresh-token.entity';
import { SessionEntity } from './session.entity';
import { SessionService } from './session.service';
import { UserPrincipalResolver } from './user-principal.resolver';

@Module({
  imports: [
    TypeOrmModule.forFeature([UserEntity, SessionEntity, RefreshTokenEntity, BlocklistedTokenEntity, LoginFailureEntity]),
    AuditModule,
    ServiceAccountsModule,
  ],
  controllers: [AuthController],
  providers: [
    AuthService,
    AccessTokenService,
    SessionService,
    PasswordHasher,
    LoginRateLimiter,
    AuthHousekeeping,
    UserPrincipalResolver,
    PlatformAuthenticator,
    { provide: PrincipalResolver, useClass: BearerPrincipalResolver },
    { provide: APP_GUARD, useClass: AuthenticationGuard },
  ],
  exports: [SessionService, PasswordHasher, AuthService, PlatformAuthenticator],
})
export class AuthModule {}
