import { Body, Controller, Delete, Get, HttpCode, HttpStatus, Param, Patch, Post, Put } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated } from '../../common/auth/authenticated.decorator';
import { CurrentPrincipal } from '../../common/auth/current-principal.decorator';
import type { Principal } from '../../common/auth/principal';
import { ApiErrorResponses } from '../../common/openapi/api-error-responses.decorator';
import { ParseIdPipe } from '../../common/validation/parse-id.pipe';
import {
  CreatedTokenDto,
  CreateServiceAccountDto,
  CreateTokenDto,
  IssuancePolicyDto,
  IssuancePolicyResponseDto,
  ServiceAccountDto,
  TokenDto,
  UpdateServiceAccountDto,
} from './service-accounts.dto';
import { ServiceAccountsService } from './service-accounts.service';

const MANAGERS = { roles: ['superuser', 'admin'] } as const;

@ApiTags('service accounts')
@Controller('service-accounts')
export class ServiceAccountsController {
  constructor(private readonly accounts: ServiceAccountsService) {}

  @Post()
  @Authenticated(MANAGERS)
  @ApiOperation({ operationId: 'createServiceAccount', summary: 'Create a service account' })
  @ApiCreatedResponse({ type: ServiceAccountDto })
  @ApiErrorResponses(400)
  async create(@CurrentPrincipal() principal: Principal, @Body() body: CreateServiceAccountDto): Promise<ServiceAccountDto> {
    return ServiceAccountDto.from(await this.accounts.create(principal, body));
  }

  @Get()
  @Authenticated(MANAGERS)
  @ApiOperation({ operationId: 'listServiceAccounts', summary: 'Service accounts (superusers: all; admins: their organization’s)' })
  @ApiOkResponse({ type: ServiceAccountDto, isArray: true })
  async list(@CurrentPrincipal() principal: Principal): Promise<ServiceAccountDto[]> {
    return (await this.accounts.list(principal)).map((account) => ServiceAccountDto.from(account));
  }

  @Get(':id')
  @Authenticated(MANAGERS)
  @ApiOperation({ operationId: 'getServiceAccount', summary: 'A service account' })
  @ApiOkResponse({ type: ServiceAccountDto })
  @ApiErrorResponses(400, 404)
  async get(@CurrentPrincipal() principal: Principal, @Param('id', ParseIdPipe) id: number): Promise<ServiceAccountDto> {
    return ServiceAccountDto.from(await this.accounts.get(principal, id));
  }

  @Patch(':id')
  @Authenticated(MANAGERS)
  @ApiOperation({ operationId: 'updateServiceAccount', summary: 'Rename, describe, change capabilities, disable or enable' })
  @ApiOkResponse({ type: ServiceAccountDto })
  @ApiErrorResponses(400, 404)
  async update(
    @CurrentPrincipal() principal: Principal,
    @Param('id', ParseIdPipe) id: number,
    @Body() body: UpdateServiceAccountDto,
  ): Promise<ServiceAccountDto> {
    return ServiceAccountDto.from(await this.accounts.update(principal, id, body));
  }

  @Delete(':id')
  @Authenticated(MANAGERS)
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({ operationId: 'deleteServiceAccount', summary: 'Delete a service account and revoke its tokens' })
  @ApiNoContentResponse()
  @ApiErrorResponses(400, 404)
  remove(@CurrentPrincipal() principal: Principal, @Param('id', ParseIdPipe) id: number): Promise<void> {
    return this.accounts.remove(principal, id);
  }

  @Post(':id/tokens')
  @Authenticated(MANAGERS)
  @ApiOperation({ operationId: 'createServiceAccountToken', summary: 'Mint a token (its plaintext is shown once)' })
  @ApiCreatedResponse({ type: CreatedTokenDto })
  @ApiErrorResponses(400, 404)
  async createToken(
    @CurrentPrincipal() principal: Principal,
    @Param('id', ParseIdPipe) id: number,
    @Body() body: CreateTokenDto,
  ): Promise<CreatedTokenDto> {
    const { token, entity } = await this.accounts.createToken(principal, id, body);
    return { ...TokenDto.from(entity), token };
  }

  @Get(':id/tokens')
  @Authenticated(MANAGERS)
  @ApiOperation({ operationId: 'listServiceAccountTokens', summary: 'Token metadata (never the token)' })
  @ApiOkResponse({ type: TokenDto, isArray: true })
  @ApiErrorResponses(400, 404)
  async listTokens(@CurrentPrincipal() principal: Principal, @Param('id', ParseIdPipe) id: number): Promise<TokenDto[]> {
    return (await this.accounts.listTokens(principal, id)).map((token) => TokenDto.from(token));
  }

  @Delete(':id/tokens/:token_id')
  @Authenticated(MANAGERS)
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({ operationId: 'revokeServiceAccountToken', summary: 'Revoke a token' })
  @ApiNoContentResponse()
  @ApiErrorResponses(400, 404)
  revokeToken(
    @CurrentPrincipal() principal: Principal,
    @Param('id', ParseIdPipe) id: number,
    @Param('token_id', ParseIdPipe) tokenId: number,
  ): Promise<void> {
    return this.accounts.revokeToken(principal, id, tokenId);
  }

  @Put(':id/policy')
  @Authenticated(MANAGERS)
  @ApiOperation({ operationId: 'putServiceAccountPolicy', summary: 'Create or replace the issuance policy' })
  @ApiOkResponse({ type: IssuancePolicyResponseDto })
  @ApiErrorResponses(400, 404)
  async putPolicy(
    @CurrentPrincipal() principal: Principal,
    @Param('id', ParseIdPipe) id: number,
    @Body() body: IssuancePolicyDto,
  ): Promise<IssuancePolicyResponseDto> {
    return IssuancePolicyResponseDto.from(await this.accounts.putPolicy(principal, id, body));
  }

  @Get(':id/policy')
  @Authenticated(MANAGERS)
  @ApiOperation({ operationId: 'getServiceAccountPolicy', summary: 'The issuance policy (404 when none: deny-all)' })
  @ApiOkResponse({ type: IssuancePolicyResponseDto })
  @ApiErrorResponses(400, 404)
  async getPolicy(@CurrentPrincipal() principal: Principal, @Param('id', ParseIdPipe) id: number): Promise<IssuancePolicyResponseDto> {
    return IssuancePolicyResponseDto.from(await this.accounts.getPolicy(principal, id));
  }

  @Delete(':id/policy')
  @Authenticated(MANAGERS)
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({ operationId: 'deleteServiceAccountPolicy', summary: 'Remove the policy: the account reverts to deny-all' })
  @ApiNoContentResponse()
  @ApiErrorResponses(400, 404)
  deletePolicy(@CurrentPrincipal() principal: Principal, @Param('id', ParseIdPipe) id: number): Promise<void> {
    return this.accounts.deletePolicy(principal, id);
  }
}
