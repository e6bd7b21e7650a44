import { Body, Controller, HttpCode, HttpStatus, Post, Req } from '@nestjs/common';
import { ApiConsumes, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { Authenticated, Public } from '../../common/auth/authenticated.decorator';
import { CurrentPrincipal } from '../../common/auth/current-principal.decorator';
import type { Principal } from '../../common/auth/principal';
import { ApiErrorResponses } from '../../common/openapi/api-error-responses.decorator';
import { RefreshRequestDto, TokenRequestDto, TokenResponseDto } from './auth.dto';
import { AuthService } from './auth.service';

@ApiTags('auth')
@Controller('auth')
export class AuthController {
  constructor(private readonly auth: AuthService) {}

  @Post('token')
  @Public()
  @HttpCode(HttpStatus.OK)
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiOperation({ operationId: 'login', summary: 'Log in with username and password (OAuth 2.0 password grant)' })
  @ApiOkResponse({ type: TokenResponseDto })
  @ApiErrorResponses(400, 401, 429)
  login(@Body() body: TokenRequestDto, @Req() request: Request): Promise<TokenResponseDto> {
    return this.auth.login(body.username, body.password, request.ip ?? 'unknown');
  }

  @Post('refresh')
  @Public()
  @HttpCode(HttpStatus.OK)
  @ApiOperation({ operationId: 'refreshToken', summary: 'Exchange a refresh token for a new token pair (rotation)' })
  @ApiOkResponse({ type: TokenResponseDto })
  @ApiErrorResponses(400, 401)
  refresh(@Body() body: RefreshRequestDto): Promise<TokenResponseDto> {
    return this.auth.refresh(body.refresh_token);
  }

  @Post('logout')
  @Authenticated()
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({ operationId: 'logout', summary: 'End this session: revoke its refresh token, blocklist this access token' })
  @ApiNoContentResponse()
  logout(@CurrentPrincipal() principal: Principal): Promise<void> {
    return this.auth.logout(principal);
  }

  @Post('invalidate')
  @Authenticated()
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({ operationId: 'invalidateTokens', summary: 'End every session of the caller' })
  @ApiNoContentResponse()
  invalidate(@CurrentPrincipal() principal: Principal): Promise<void> {
    return this.auth.invalidateAll(principal);
  }
}
