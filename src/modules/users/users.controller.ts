import { Body, Controller, Delete, Get, Headers, HttpCode, HttpStatus, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiHeader, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated } from '../../common/auth/authenticated.decorator';
import { CurrentPrincipal } from '../../common/auth/current-principal.decorator';
import type { Principal } from '../../common/auth/principal';
import { PaginationQueryDto } from '../../common/http/pagination.dto';
import { ParseIdPipe } from '../../common/validation/parse-id.pipe';
import { ApiErrorResponses } from '../../common/openapi/api-error-responses.decorator';
import { CreateUserDto, UpdateUserDto, UserDto } from './users.dto';
import { UsersService } from './users.service';

@ApiTags('users')
@Controller('users')
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @Post()
  @Authenticated({ optional: true })
  @ApiOperation({
    operationId: 'createUser',
    summary: 'Create a user (anonymous for the first user, or when self-registration is enabled)',
  })
  @ApiCreatedResponse({ type: UserDto })
  @ApiHeader({
    name: 'X-Bootstrap-Token',
    required: false,
    description: 'The BOOTSTRAP_TOKEN setting; needed to create the first user when it is set',
  })
  @ApiErrorResponses(400, 403)
  async create(
    @CurrentPrincipal() principal: Principal | undefined,
    @Body() body: CreateUserDto,
    @Headers('x-bootstrap-token') bootstrapToken: string | undefined,
  ): Promise<UserDto> {
    return UserDto.from(await this.users.create(principal, body, bootstrapToken));
  }

  @Get()
  @Authenticated({ roles: ['superuser'] })
  @ApiOperation({ operationId: 'listUsers', summary: 'All users (superusers)' })
  @ApiOkResponse({ type: UserDto, isArray: true })
  @ApiErrorResponses(400)
  async list(@Query() query: PaginationQueryDto): Promise<UserDto[]> {
    return (await this.users.list(query.skip, query.limit)).map((user) => UserDto.from(user));
  }

  @Get('me')
  @Authenticated()
  @ApiOperation({ operationId: 'getCurrentUser', summary: 'The calling user' })
  @ApiOkResponse({ type: UserDto })
  async me(@CurrentPrincipal() principal: Principal): Promise<UserDto> {
    return UserDto.from(await this.users.current(principal));
  }

  @Get(':user_id')
  @Authenticated()
  @ApiOperation({ operationId: 'getUser', summary: 'A user (self, admins of its organization, superusers)' })
  @ApiOkResponse({ type: UserDto })
  @ApiErrorResponses(400, 403, 404)
  async get(@CurrentPrincipal() principal: Principal, @Param('user_id', ParseIdPipe) id: number): Promise<UserDto> {
    return UserDto.from(await this.users.get(principal, id));
  }

  @Patch(':user_id')
  @Authenticated()
  @ApiOperation({ operationId: 'updateUser', summary: 'Change a user; each field has its own permission' })
  @ApiOkResponse({ type: UserDto })
  @ApiErrorResponses(400, 403, 404)
  async update(
    @CurrentPrincipal() principal: Principal,
    @Param('user_id', ParseIdPipe) id: number,
    @Body() body: UpdateUserDto,
  ): Promise<UserDto> {
    return UserDto.from(await this.users.update(principal, id, body));
  }

  @Delete(':user_id')
  @Authenticated({ roles: ['superuser'] })
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({ operationId: 'deleteUser', summary: 'Delete a user (superusers, not themselves)' })
  @ApiNoContentResponse()
  @ApiErrorResponses(400, 404)
  remove(@CurrentPrincipal() principal: Principal, @Param('user_id', ParseIdPipe) id: number): Promise<void> {
    return this.users.remove(principal, id);
  }
}
