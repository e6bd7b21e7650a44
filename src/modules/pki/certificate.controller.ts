import { Body, Controller, Get, HttpCode, HttpStatus, Param, Post, Query, Req } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { Authenticated } from '../../common/auth/authenticated.decorator';
import { CurrentPrincipal } from '../../common/auth/current-principal.decorator';
import type { Principal } from '../../common/auth/principal';
import { ApiErrorResponses } from '../../common/openapi/api-error-responses.decorator';
import { ParseIdPipe } from '../../common/validation/parse-id.pipe';
import {
  CertificateDetailDto,
  CertificateDto,
  IssueCertificateDto,
  IssueCertificateQueryDto,
  ListCertificatesQueryDto,
  RenewCertificateDto,
  RevokeCertificateDto,
  SignCsrDto,
} from './certificate.dto';
import { CertificateEntity } from './certificate.entity';
import { CertificateService } from './certificate.service';
import { PublicBaseUrl } from './public-base-url';

@ApiTags('certificates')
@Controller('certificates')
export class CertificateController {
  constructor(
    private readonly certificates: CertificateService,
    private readonly baseUrl: PublicBaseUrl,
  ) {}

  @Post()
  @Authenticated({ allowServiceAccounts: true })
  @ApiOperation({ operationId: 'issueCertificate', summary: 'Issue a certificate with a key generated here' })
  @ApiCreatedResponse({ type: CertificateDetailDto })
  @ApiErrorResponses(400, 403, 404)
  async issue(
    @CurrentPrincipal() principal: Principal,
    @Query() query: IssueCertificateQueryDto,
    @Body() body: IssueCertificateDto,
    @Req() request: Request,
  ): Promise<CertificateDetailDto> {
    const { certificate, privateKey } = await this.certificates.issue(principal, query.ca_id, body, this.baseUrl.for(request));
    return { ...CertificateDto.from(certificate), private_key: privateKey };
  }

  @Post('sign-csr')
  @Authenticated({ allowServiceAccounts: true })
  @ApiOperation({ operationId: 'signCsr', summary: 'Sign a certificate signing request (audit-logged)' })
  @ApiCreatedResponse({ type: CertificateDto })
  @ApiErrorResponses(400, 403, 404)
  async signCsr(@CurrentPrincipal() principal: Principal, @Body() body: SignCsrDto, @Req() request: Request): Promise<CertificateDto> {
    return CertificateDto.from(await this.certificates.signCsr(principal, body, this.baseUrl.for(request)));
  }

  @Get()
  @Authenticated({ allowServiceAccounts: true })
  @ApiOperation({ operationId: 'listCertificates', summary: 'Certificates (superusers: all; others: their organization’s)' })
  @ApiOkResponse({ type: CertificateDto, isArray: true })
  @ApiErrorResponses(400)
  async list(@CurrentPrincipal() principal: Principal, @Query() query: ListCertificatesQueryDto): Promise<CertificateDto[]> {
    return this.present(await this.certificates.list(principal, query.ca_id, query.skip, query.limit));
  }

  @Get('by-serial/:serial')
  @Authenticated({ allowServiceAccounts: true })
  @ApiOperation({ operationId: 'getCertificateBySerial', summary: 'A certificate by serial number (hex, colons allowed)' })
  @ApiOkResponse({ type: CertificateDto })
  @ApiErrorResponses(400, 404)
  async bySerial(@CurrentPrincipal() principal: Principal, @Param('serial') serial: string): Promise<CertificateDto> {
    const [dto] = await this.present([await this.certificates.bySerial(principal, serial)]);
    return dto;
  }

  @Get(':cert_id')
  @Authenticated({ allowServiceAccounts: true })
  @ApiOperation({ operationId: 'getCertificate', summary: 'A certificate with its renewal lineage' })
  @ApiOkResponse({ type: CertificateDto })
  @ApiErrorResponses(400, 404)
  async get(@CurrentPrincipal() principal: Principal, @Param('cert_id', ParseIdPipe) id: number): Promise<CertificateDto> {
    const [dto] = await this.present([await this.certificates.findAuthorized(principal, id, 'read')]);
    return dto;
  }

  @Get(':cert_id/private-key')
  @Authenticated({ allowServiceAccounts: true })
  @ApiOperation({ operationId: 'getCertificatePrivateKey', summary: 'A certificate with its private key (audit-logged)' })
  @ApiOkResponse({ type: CertificateDetailDto })
  @ApiErrorResponses(400, 403, 404)
  async privateKey(@CurrentPrincipal() principal: Principal, @Param('cert_id', ParseIdPipe) id: number): Promise<CertificateDetailDto> {
    const { certificate, privateKey } = await this.certificates.withPrivateKey(principal, id, 'api');
    const [dto] = await this.present([certificate]);
    return { ...dto, private_key: privateKey };
  }

  @Post(':cert_id/revoke')
  @Authenticated({ allowServiceAccounts: true })
  @HttpCode(HttpStatus.OK)
  @ApiOperation({ operationId: 'revokeCertificate', summary: 'Revoke a certificate (audit-logged)' })
  @ApiBody({ type: RevokeCertificateDto, required: false })
  @ApiOkResponse({ type: CertificateDto })
  @ApiBody({ type: RevokeCertificateDto, required: false })
  @ApiErrorResponses(400, 403, 404, 409)
  async revoke(
    @CurrentPrincipal() principal: Principal,
    @Param('cert_id', ParseIdPipe) id: number,
    @Body() body: RevokeCertificateDto,
  ): Promise<CertificateDto> {
    const [dto] = await this.present([await this.certificates.revoke(principal, id, body)]);
    return dto;
  }

  @Post(':cert_id/renew')
  @Authenticated({ allowServiceAccounts: true })
  @ApiOperation({ operationId: 'renewCertificate', summary: 'Issue a successor with the same subject, SANs, CA and validity' })
  @ApiCreatedResponse({ type: CertificateDetailDto })
  @ApiErrorResponses(400, 403, 404)
  async renew(
    @CurrentPrincipal() principal: Principal,
    @Param('cert_id', ParseIdPipe) id: number,
    @Body() body: RenewCertificateDto,
    @Req() request: Request,
  ): Promise<CertificateDetailDto> {
    const { certificate, privateKey } = await this.certificates.renew(principal, id, body, this.baseUrl.for(request));
    return { ...CertificateDto.from(certificate), private_key: privateKey };
  }

  private async present(certificates: CertificateEntity[]): Promise<CertificateDto[]> {
    const successors = await this.certificates.renewedToIds(certificates.map((certificate) => certificate.id));
    return certificates.map((certificate) => CertificateDto.from(certificate, successors.get(certificate.id)));
  }
}
