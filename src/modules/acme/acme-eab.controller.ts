import { Controller, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated } from '../../common/auth/authenticated.decorator';
import { CurrentPrincipal } from '../../common/auth/current-principal.decorator';
import type { Principal } from '../../common/auth/principal';
import { ApiErrorResponses } from '../../common/openapi/api-error-responses.decorator';
import { ParseIdPipe } from '../../common/validation/parse-id.pipe';
import { CreatedEabKeyDto } from './acme-eab.dto';
import { AcmeEabService } from './acme-eab.service';

@ApiTags('service accounts')
@Controller('service-accounts')
export class AcmeEabController {
  constructor(private readonly eab: AcmeEabService) {}

  @Post(':id/acme-eab-keys')
  @Authenticated({ roles: ['superuser', 'admin'] })
  @ApiOperation({
    operationId: 'createAcmeEabKey',
    summary: 'Issue an ACME External Account Binding key: the ACME account created with it issues as this service account',
  })
  @ApiCreatedResponse({ type: CreatedEabKeyDto })
  @ApiErrorResponses(400, 404)
  async create(@CurrentPrincipal() principal: Principal, @Param('id', ParseIdPipe) id: number): Promise<CreatedEabKeyDto> {
    return CreatedEabKeyDto.from(await this.eab.create(principal, id));
  }
}
