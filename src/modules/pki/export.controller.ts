import { Controller, Get, Param, StreamableFile } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
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

/** A PEM download. Sent as bytes so the media type stays exactly `application/x-pem-file`: a string body would get `; charset=utf-8`. */
function pemFile(filename: string, pem: string): StreamableFile {
  return new StreamableFile(Buffer.from(pem), { type: PEM, disposition: `attachment; filename="${filename}"` });
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
  async caCertificate(@CurrentPrincipal() principal: Principal, @Param('ca_id', ParseIdPipe) id: number): Promise<StreamableFile> {
    const ca = await this.cas.findAuthorized(principal, id, 'read');
    return pemFile(`ca_${id}_certificate.pem`, ca.certificate);
  }

  @Get('ca/:ca_id/private-key')
  @Authenticated({ allowServiceAccounts: true })
  @ApiOperation({ operationId: 'exportCaPrivateKey', summary: 'CA private key, PEM (audit-logged)' })
  @ApiFileResponse('PEM file', PEM)
  @ApiErrorResponses(400, 403, 404)
  async caPrivateKey(@CurrentPrincipal() principal: Principal, @Param('ca_id', ParseIdPipe) id: number): Promise<StreamableFile> {
    const { privateKey } = await this.cas.withPrivateKey(principal, id, 'export');
    return pemFile(`ca_${id}_private_key.pem`, privateKey);
  }

  @Get('certificate/:cert_id')
  @Authenticated({ allowServiceAccounts: true })
  @ApiOperation({ operationId: 'exportCertificate', summary: 'Certificate, PEM' })
  @ApiFileResponse('PEM file', PEM)
  @ApiErrorResponses(400, 404)
  async certificate(@CurrentPrincipal() principal: Principal, @Param('cert_id', ParseIdPipe) id: number): Promise<StreamableFile> {
    const certificate = await this.certificates.findAuthorized(principal, id, 'read');
    return pemFile(`certificate_${id}.pem`, certificate.certificate);
  }

  @Get('certificate/:cert_id/private-key')
  @Authenticated({ allowServiceAccounts: true })
  @ApiOperation({
    operationId: 'exportCertificatePrivateKey',
    summary: 'Certificate private key, PEM (audit-logged; 404 when none is held)',
  })
  @ApiFileResponse('PEM file', PEM)
  @ApiErrorResponses(400, 403, 404)
  async certificatePrivateKey(
    @CurrentPrincipal() principal: Principal,
    @Param('cert_id', ParseIdPipe) id: number,
  ): Promise<StreamableFile> {
    const { privateKey } = await this.certificates.withPrivateKey(principal, id, 'export');
    if (privateKey === null) throw new NotFoundError(`Certificate ${id} has no private key held by this service`, 'private_key_not_held');
    return pemFile(`certificate_${id}_private_key.pem`, privateKey);
  }

  @Get('certificate/:cert_id/chain')
  @Authenticated({ allowServiceAccounts: true })
  @ApiOperation({ operationId: 'exportCertificateChain', summary: 'Certificate followed by its issuers up to the root, PEM' })
  @ApiFileResponse('PEM file', PEM)
  @ApiErrorResponses(400, 404)
  async chain(@CurrentPrincipal() principal: Principal, @Param('cert_id', ParseIdPipe) id: number): Promise<StreamableFile> {
    const certificate = await this.certificates.findAuthorized(principal, id, 'read');
    const issuers = await this.cas.chainOf(certificate.issuerId);
    return pemFile(`certificate_${id}_chain.pem`, concatenatePemChain([certificate.certificate, ...issuers.map((ca) => ca.certificate)]));
  }
}
