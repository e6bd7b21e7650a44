import { Body, Controller, Delete, Get, HttpCode, HttpStatus, Param, Post, Put, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated } from '../../common/auth/authenticated.decorator';
import { CurrentPrincipal } from '../../common/auth/current-principal.decorator';
import type { Principal } from '../../common/auth/principal';
import { PaginationQueryDto } from '../../common/http/pagination.dto';
import { ApiErrorResponses } from '../../common/openapi/api-error-responses.decorator';
import { ParseIdPipe } from '../../common/validation/parse-id.pipe';
import { UserDto } from '../users/users.dto';
import { CreateOrganizationDto, OrganizationDto, UpdateOrganizationDto } from './orgs.dto';
import { OrgsService } from './orgs.service';

@ApiTags('organizations')
@Controller('organizations')
export class OrgsController {
  constructor(private readonly orgs: OrgsService) {}

  @Post()
  @Authenticated({ roles: ['superuser', 'admin'] })
  @ApiOperation({ operationId: 'createOrganization', summary: 'Create an organization (admins, superusers)' })
  @ApiCreatedResponse({ type: OrganizationDto })
  @ApiErrorResponses(400)
  async create(@CurrentPrincipal() principal: Principal, @Body() body: CreateOrganizationDto): Promise<OrganizationDto> {
    return OrganizationDto.from(await this.orgs.create(principal, body));
  }

  @Get()
  @Authenticated()
  @ApiOperation({ operationId: 'listOrganizations', summary: 'Organizations (superusers: all; others: their own)' })
  @ApiOkResponse({ type: OrganizationDto, isArray: true })
  @ApiErrorResponses(400)
  async list(@CurrentPrincipal() principal: Principal, @Query() query: PaginationQueryDto): Promise<OrganizationDto[]> {
    return (await this.orgs.list(principal, query.skip, query.limit)).map((organization) => OrganizationDto.from(organization));
  }

  @Get(':organization_id')
  @Authenticated()
  @ApiOperation({ operationId: 'getOrganization', summary: 'An organization (members, superusers)' })
  @ApiOkResponse({ type: OrganizationDto })
  @ApiErrorResponses(400, 404)
  async get(@CurrentPrincipal() principal: Principal, @Param('organization_id', ParseIdPipe) id: number): Promise<OrganizationDto> {
    return OrganizationDto.from(await this.orgs.get(principal, id));
  }

  @Put(':organization_id')
  @Authenticated()
  @ApiOperation({ operationId: 'updateOrganization', summary: 'Rename or describe an organization (its admins, superusers)' })
  @ApiOkResponse({ type: OrganizationDto })
  @ApiErrorResponses(400, 403, 404)
  async update(
    @CurrentPrincipal() principal: Principal,
    @Param('organization_id', ParseIdPipe) id: number,
    @Body() body: UpdateOrganizationDto,
  ): Promise<OrganizationDto> {
    return OrganizationDto.from(await this.orgs.update(principal, id, body));
  }

  @Delete(':organization_id')
  @Authenticated({ roles: ['superuser'] })
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({ operationId: 'deleteOrganization', summary: 'Delete an organization without users (superusers)' })
  @ApiNoContentResponse()
  @ApiErrorResponses(400, 404)
  remove(@CurrentPrincipal() principal: Principal, @Param('organization_id', ParseIdPipe) id: number): Promise<void> {
    return this.orgs.remove(principal, id);
  }

  @Post(':organization_id/users/:user_id')
  @Authenticated()
  @HttpCode(HttpStatus.OK)
  @ApiOperation({ operationId: 'addOrganizationUser', summary: 'Put a user into the organization' })
  @ApiOkResponse({ type: UserDto })
  @ApiErrorResponses(400, 403, 404, 409)
  async addUser(
    @CurrentPrincipal() principal: Principal,
    @Param('organization_id', ParseIdPipe) organizationId: number,
    @Param('user_id', ParseIdPipe) userId: number,
  ): Promise<UserDto> {
    return UserDto.from(await this.orgs.addUser(principal, organizationId, userId));
  }

  @Delete(':organization_id/users/:user_id')
  @Authenticated()
  @ApiOperation({ operationId: 'removeOrganizationUser', summary: 'Take a user out of the organization' })
  @ApiOkResponse({ type: UserDto })
  @ApiErrorResponses(400, 403, 404, 409)
  async removeUser(
    @CurrentPrincipal() principal: Principal,
    @Param('organization_id', ParseIdPipe) organizationId: number,
    @Param('user_id', ParseIdPipe) userId: number,
  ): Promise<UserDto> {
    return UserDto.from(await this.orgs.removeUser(principal, organizationId, userId));
  }

  @Get(':organization_id/users')
  @Authenticated()
  @ApiOperation({ operationId: 'listOrganizationUsers', summary: 'Members of the organization' })
  @ApiOkResponse({ type: UserDto, isArray: true })
  @ApiErrorResponses(400, 404)
  async members(
    @CurrentPrincipal() principal: Principal,
    @Param('organization_id', ParseIdPipe) id: number,
    @Query() query: PaginationQueryDto,
  ): Promise<UserDto[]> {
    return (await this.orgs.members(principal, id, query.skip, query.limit)).map((user) => UserDto.from(user));
  }
}
