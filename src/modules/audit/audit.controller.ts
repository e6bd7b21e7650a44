import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated } from '../../common/auth/authenticated.decorator';
import { CurrentPrincipal } from '../../common/auth/current-principal.decorator';
import type { Principal } from '../../common/auth/principal';
import { ApiErrorResponses } from '../../common/openapi/api-error-responses.decorator';
import { AuditLogDto, AuditLogQueryDto } from './audit.dto';
import { AuditService } from './audit.service';

@ApiTags('audit')
@Controller('audit-logs')
export class AuditController {
  constructor(private readonly audit: AuditService) {}

  @Get()
  @Authenticated({ roles: ['superuser', 'admin'] })
  @ApiOperation({ operationId: 'listAuditLogs', summary: 'Audit entries, newest first (admins: own organization)' })
  @ApiOkResponse({ type: AuditLogDto, isArray: true })
  @ApiErrorResponses(400)
  async list(@CurrentPrincipal() principal: Principal, @Query() query: AuditLogQueryDto): Promise<AuditLogDto[]> {
    const entries = await this.audit.list(principal, {
      action: query.action,
      userId: query.user_id,
      resourceType: query.resource_type,
      resourceId: query.resource_id,
      since: query.since,
      until: query.until,
      skip: query.skip,
      limit: query.limit,
    });
    return entries.map((entry) => AuditLogDto.from(entry));
  }
}
