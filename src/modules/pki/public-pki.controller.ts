import { Controller, Get, Param, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { certificatePemToDer } from '@libs/x509';
import { Public } from '../../common/auth/authenticated.decorator';
import { ApiErrorResponses } from '../../common/openapi/api-error-responses.decorator';
import { ApiFileResponse } from '../../common/openapi/api-file-response.decorator';
import { crlPem } from './crl.service';
import { PublicPkiService } from './public-pki.service';

/**
 * Unauthenticated CRL and CA-certificate distribution, at the root (the URLs inside certificates).
 * PEM goes out as bytes: for a string body Express would append `; charset=utf-8` to the media type.
 */
@ApiTags('public')
@Controller()
export class PublicPkiController {
  constructor(private readonly publicPki: PublicPkiService) {}

  @Get('crl/:file')
  @Public()
  @ApiOperation({ operationId: 'getCrl', summary: 'CRL of a CA: /crl/{slug} (DER) or /crl/{slug}.pem' })
  @ApiFileResponse('CRL: DER, or PEM for .pem', 'application/pkix-crl', 'application/x-pem-file')
  @ApiErrorResponses(404)
  async crl(@Param('file') file: string, @Res() res: Response): Promise<void> {
    const pem = file.endsWith('.pem');
    const slug = pem ? file.slice(0, -'.pem'.length) : file;
    const crl = await this.publicPki.crl(slug);
    res.setHeader('Cache-Control', 'public, max-age=300');
    if (pem) {
      res.type('application/x-pem-file').setHeader('Content-Disposition', `attachment; filename="${slug}.crl.pem"`);
      res.send(crlPem(crl));
    } else {
      res.type('application/pkix-crl').setHeader('Content-Disposition', `attachment; filename="${slug}.crl"`);
      res.send(crl.der);
    }
  }

  @Get('ca/:file')
  @Public()
  @ApiOperation({ operationId: 'getPublicCaCertificate', summary: 'CA certificate: /ca/{slug}.crt (DER) or /ca/{slug}.pem' })
  @ApiFileResponse('CA certificate: DER for .crt, PEM for .pem', 'application/pkix-cert', 'application/x-pem-file')
  @ApiErrorResponses(404)
  async caCertificate(@Param('file') file: string, @Res() res: Response): Promise<void> {
    const match = /^(.+)\.(crt|pem)$/.exec(file);
    const ca = await this.publicPki.ca(match ? match[1] : undefined);
    res.setHeader('Cache-Control', 'public, max-age=3600');
    if (match![2] === 'pem') {
      res.type('application/x-pem-file').send(Buffer.from(ca.certificate));
    } else {
      res.type('application/pkix-cert').send(Buffer.from(certificatePemToDer(ca.certificate)));
    }
  }
}
