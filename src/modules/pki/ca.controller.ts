import { Body, Controller, Delete, Get, HttpCode, HttpStatus, Param, Patch, Post, Req } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { Authenticated } from '../../common/auth/authenticated.decorator';
import { CurrentPrincipal } from '../../common/auth/current-principal.decorator';
import type { Principal } from '../../common/auth/principal';
import { ApiErrorResponses } from '../../common/openapi/api-error-responses.decorator';
import { ParseIdPipe } from '../../common/validation/parse-id.pipe';
import { CaDetailDto, CaDto, CreateCaDto, UpdateCaDto } from './ca.dto';
import { CaService } from './ca.service';
import { CertificateAuthorityEntity } from './certificate-authority.entity';
import { OcspService } from './ocsp.service';
import { PublicBaseUrl } from './public-base-url';

@ApiTags('certificate authorities')
@Controller('cas')
export class CaController {
  constructor(
    private readonly cas: CaService,
    private readonly baseUrl: PublicBaseUrl,
    private readonly ocsp: OcspService,
  ) {}

  @Post()
  @Authenticated({ allowServiceAccounts: true })
  @ApiOperation({ operationId: 'createCa', summary: 'Create a root CA, or an intermediate with parent_ca_id' })
  @ApiCreatedResponse({ type: CaDetailDto })
  @ApiErrorResponses(400, 403, 404)
  async create(@CurrentPrincipal() principal: Principal, @Body() body: CreateCaDto, @Req() request: Request): Promise<CaDetailDto> {
    const ca = await this.cas.create(principal, body, this.baseUrl.for(request));
    const [dto] = await this.present([ca], request);
    return { ...dto, private_key: this.cas.decryptedKey(ca) };
  }

  @Get()
  @Authenticated({ allowServiceAccounts: true })
  @ApiOperation({ operationId: 'listCas', summary: 'CAs (superusers: all; others: their organization’s)' })
  @ApiOkResponse({ type: CaDto, isArray: true })
  async list(@CurrentPrincipal() principal: Principal, @Req() request: Request): Promise<CaDto[]> {
    return this.present(await this.cas.list(principal), request);
  }

  @Get(':ca_id')
  @Authenticated({ allowServiceAccounts: true })
  @ApiOperation({ operationId: 'getCa', summary: 'A CA' })
  @ApiOkResponse({ type: CaDto })
  @ApiErrorResponses(400, 404)
  async get(@CurrentPrincipal() principal: Principal, @Param('ca_id', ParseIdPipe) id: number, @Req() request: Request): Promise<CaDto> {
    const [dto] = await this.present([await this.cas.findAuthorized(principal, id, 'read')], request);
    return dto;
  }

  @Get(':ca_id/private-key')
  @Authenticated({ allowServiceAccounts: true })
  @ApiOperation({ operationId: 'getCaPrivateKey', summary: 'A CA with its private key (audit-logged)' })
  @ApiOkResponse({ type: CaDetailDto })
  @ApiErrorResponses(400, 403, 404)
  async privateKey(
    @CurrentPrincipal() principal: Principal,
    @Param('ca_id', ParseIdPipe) id: number,
    @Req() request: Request,
  ): Promise<CaDetailDto> {
    const { ca, privateKey } = await this.cas.withPrivateKey(principal, id, 'api');
    const [dto] = await this.present([ca], request);
    return { ...dto, private_key: privateKey };
  }

  @Get(':ca_id/chain')
  @Authenticated({ allowServiceAccounts: true })
  @ApiOperation({ operationId: 'getCaChain', summary: 'The CA and its issuers up to the root' })
  @ApiOkResponse({ type: CaDto, isArray: true })
  @ApiErrorResponses(400, 404)
  async chain(
    @CurrentPrincipal() principal: Principal,
    @Param('ca_id', ParseIdPipe) id: number,
    @Req() request: Request,
  ): Promise<CaDto[]> {
    return this.present(await this.cas.chain(principal, id), request);
  }

  @Get(':ca_id/children')
  @Authenticated({ allowServiceAccounts: true })
  @ApiOperation({ operationId: 'listCaChildren', summary: 'Direct sub-CAs' })
  @ApiOkResponse({ type: CaDto, isArray: true })
  @ApiErrorResponses(400, 404)
  async children(
    @CurrentPrincipal() principal: Principal,
    @Param('ca_id', ParseIdPipe) id: number,
    @Req() request: Request,
  ): Promise<CaDto[]> {
    return this.present(await this.cas.children(principal, id), request);
  }

  @Patch(':ca_id')
  @Authenticated()
  @ApiOperation({
    operationId: 'updateCa',
    summary:
      "Set allow_leaf_certs (admins of the CA's organization) and/or assign the CA, with cascade its org-less subtree, to an organization (superusers)",
  })
  @ApiOkResponse({ type: CaDto })
  @ApiErrorResponses(400, 403, 404)
  async update(
    @CurrentPrincipal() principal: Principal,
    @Param('ca_id', ParseIdPipe) id: number,
    @Body() body: UpdateCaDto,
    @Req() request: Request,
  ): Promise<CaDto> {
    const updated = await this.cas.update(principal, id, body);
    // This process's OCSP responder answers with the new settings at once (others within a second).
    this.ocsp.forgetCaStates();
    const [dto] = await this.present([updated], request);
    return dto;
  }

  @Delete(':ca_id')
  @Authenticated({ allowServiceAccounts: true })
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({ operationId: 'deleteCa', summary: 'Delete a CA without sub-CAs, and its certificates' })
  @ApiNoContentResponse()
  @ApiErrorResponses(400, 403, 404, 409)
  remove(@CurrentPrincipal() principal: Principal, @Param('ca_id', ParseIdPipe) id: number): Promise<void> {
    return this.cas.remove(principal, id);
  }

  private async present(cas: CertificateAuthorityEntity[], request: Request): Promise<CaDto[]> {
    const allowed = await this.cas.leafCertsAllowed(cas);
    const baseUrl = this.baseUrl.for(request);
    return cas.map((ca) => CaDto.from(ca, allowed.get(ca.id)!, baseUrl));
  }
}
