import { Controller, Get, Param, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { concatenatePemChain } from '@libs/x509';
import { Authenticated } from '../../common/auth/authenticated.decorator';
import { CurrentPrincipal } from '../../common/auth/current-principal.decorator';
import type { Principal } from '../../common/auth/principal';
import { NotFoundError } from '../../common/errors/common-errors';
import { ApiErrorResponses } from '../../common/openapi/api-error-responses.decorator';
import { ApiFileResponse } from '../../common/openapi/api-file-response.decorator';
import { ParseIdPipe } from '../../common/validation/parse-id.pipe';
import { CaService } from './ca.service';
import { CertificateService } from './certificate.service';

const PEM = 'application/x-pem-file';

function sendPem(res: Response, filename: string, pem: string): string {
  res.setHeader('Content-Type', PEM);
  res.setHeader('Content-Disposition', `attachment; filename="${filename}"`);
  return pem;
}

/** PEM downloads of certificates, chains and keys. */
@ApiTags('export')
@Controller('export')
export class ExportController {
  constructor(
    private readonly cas: CaService,
    private readonly certificates: CertificateService,
  ) {}

  @Get('ca/:ca_id/certificate')
  @Authenticated({ allowServiceAccounts: true })
  @ApiOperation({ operationId: 'exportCaCertificate', summary: 'CA certificate, PEM' })
  @ApiFileResponse('PEM file', PEM)
  @ApiErrorResponses(400, 404)
  async caCertificate(@CurrentPrincipal() principal: Principal, @Param('ca_id', ParseIdPipe) id: number, @Res({ passthrough: true }) res: Response): Promise<string> {
    const ca = await this.cas.findAuthorized(principal, id, 'read');
    return sendPem(res, `ca_${id}_certificate.pem`, ca.certificate);
  }

  @Get('ca/:ca_id/private-key')
  @Authenticated({ allowServiceAccounts: true })
  @ApiOperation({ operationId: 'exportCaPrivateKey', summary: 'CA private key, PEM (audit-logged)' })
  @ApiFileResponse('PEM file', PEM)
  @ApiErrorResponses(400, 403, 404)
  async caPrivateKey(@CurrentPrincipal() principal: Principal, @Param('ca_id', ParseIdPipe) id: number, @Res({ passthrough: true }) res: Response): Promise<string> {
    const { privateKey } = await this.cas.withPrivateKey(principal, id, 'export');
    return sendPem(res, `ca_${id}_private_key.pem`, privateKey);
  }

  @Get('certificate/:cert_id')
  @Authenticated({ allowServiceAccounts: true })
  @ApiOperation({ operationId: 'exportCertificate', summary: 'Certificate, PEM' })
  @ApiFileResponse('PEM file', PEM)
  @ApiErrorResponses(400, 404)
  async certificate(@CurrentPrincipal() principal: Principal, @Param('cert_id', ParseIdPipe) id: number, @Res({ passthrough: true }) res: Response): Promise<string> {
    const certificate = await this.certificates.findAuthorized(principal, id, 'read');
    return sendPem(res, `certificate_${id}.pem`, certificate.certificate);
  }

  @Get('certificate/:cert_id/private-key')
  @Authenticated({ allowServiceAccounts: true })
  @ApiOperation({ operationId: 'exportCertificatePrivateKey', summary: 'Certificate private key, PEM (audit-logged; 404 when none is held)' })
  @ApiFileResponse('PEM file', PEM)
  @ApiErrorResponses(400, 403, 404)
  async certificatePrivateKey(@CurrentPrincipal() principal: Principal, @Param('cert_id', ParseIdPipe) id: number, @Res({ passthrough: true }) res: Response): Promise<string> {
    const { privateKey } = await this.certificates.withPrivateKey(principal, id, 'export');
    if (privateKey === null) throw new NotFoundError(`Certificate ${id} has no private key held by this service`, 'private_key_not_held');
    return sendPem(res, `certificate_${id}_private_key.pem`, privateKey);
  }

  @Get('certificate/:cert_id/chain')
  @Authenticated({ allowServiceAccounts: true })
  @ApiOperation({ operationId: 'exportCertificateChain', summary: 'Certificate followed by its issuers up to the root, PEM' })
  @ApiFileResponse('PEM file', PEM)
  @ApiErrorResponses(400, 404)
  async chain(@CurrentPrincipal() principal: Principal, @Param('cert_id', ParseIdPipe) id: number, @Res({ passthrough: true }) res: Response): Promise<string> {
    const certificate = await this.certificates.findAuthorized(principal, id, 'read');
    const issuers = await this.cas.chainOf(certificate.issuerId);
    return sendPem(res, `certificate_${id}_chain.pem`, concatenatePemChain([certificate.certificate, ...issuers.map((ca) => ca.certificate)]));
  }
}
