import { Controller, Get, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOkResponse, ApiOperation, ApiParam, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { randomBytes } from 'node:crypto';
import type { Request, Response } from 'express';
import { Public } from '../../common/auth/authenticated.decorator';
import { ApiErrorResponses } from '../../common/openapi/api-error-responses.decorator';
import { PublicBaseUrl } from '../pki/public-base-url';
import { EstAuthenticator } from './est-authenticator';
import { EstService } from './est.service';

const PKCS7_CERTS_ONLY = 'application/pkcs7-mime; smime-type=certs-only';
const BASE64_BODY = { type: 'string', format: 'byte' } as const;
const CERTS_ONLY = {
  description: 'A certs-only PKCS#7 (degenerate SignedData), base64 (`Content-Transfer-Encoding: base64`)',
  content: { [PKCS7_CERTS_ONLY]: { schema: BASE64_BODY } },
} as const;
const CSR_BODY = { description: 'The PKCS#10 request, DER in base64 (line breaks allowed)', schema: BASE64_BODY } as const;
const SLUG = { name: 'slug', description: 'The CA slug (`<slugified name>-<id>`), the EST label of the CA' } as const;

/**
 * EST (RFC 7030) at /.well-known/est/<ca-slug>/…. The routes are public to the framework's guard:
 * EST authenticates itself (HTTP Basic with a service account token, or a client certificate from
 * a trusted ingress), since its clients speak neither bearer tokens nor the API's error bodies.
 */
@ApiTags('est')
@Controller('.well-known/est')
export class EstController {
  constructor(
    private readonly est: EstService,
    private readonly authenticator: EstAuthenticator,
    private readonly baseUrl: PublicBaseUrl,
  ) {}

  @Get(':slug/cacerts')
  @Public()
  @ApiOperation({ operationId: 'estCaCerts', summary: 'EST: the CA certificate and those above it (RFC 7030 §4.1)' })
  @ApiParam(SLUG)
  @ApiOkResponse(CERTS_ONLY)
  @ApiErrorResponses(404)
  async caCerts(@Param('slug') slug: string, @Res() res: Response): Promise<void> {
    sendBase64(res, PKCS7_CERTS_ONLY, await this.est.caCertificates(slug));
  }

  @Get(':slug/csrattrs')
  @Public()
  @ApiOperation({ operationId: 'estCsrAttrs', summary: 'EST: what CSRs should carry — the signature algorithm (RFC 7030 §4.5)' })
  @ApiParam(SLUG)
  @ApiOkResponse({ description: 'CsrAttrs, DER in base64', content: { 'application/csrattrs': { schema: BASE64_BODY } } })
  @ApiErrorResponses(404)
  async csrAttrs(@Param('slug') slug: string, @Res() res: Response): Promise<void> {
    sendBase64(res, 'application/csrattrs', await this.est.csrAttributes(slug));
  }

  @Post(':slug/simpleenroll')
  @Public()
  @HttpCode(200)
  @ApiSecurity('basic')
  @ApiOperation({ operationId: 'estSimpleEnroll', summary: 'EST: sign a CSR under the account’s issuance policy (RFC 7030 §4.2.1)' })
  @ApiParam(SLUG)
  @ApiConsumes('application/pkcs10')
  @ApiBody(CSR_BODY)
  @ApiOkResponse(CERTS_ONLY)
  @ApiErrorResponses(400, 401, 403, 404)
  async simpleEnroll(@Param('slug') slug: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const principal = await this.authenticator.basic(req);
    sendBase64(res, PKCS7_CERTS_ONLY, await this.est.enroll(slug, principal, req.body, this.baseUrl.for(req)));
  }

  @Post(':slug/simplereenroll')
  @Public()
  @HttpCode(200)
  @ApiSecurity({})
  @ApiSecurity('basic')
  @ApiOperation({
    operationId: 'estSimpleReenroll',
    summary: 'EST: renew a certificate with a new key, by Basic credentials or the client certificate (RFC 7030 §4.2.2)',
  })
  @ApiParam(SLUG)
  @ApiConsumes('application/pkcs10')
  @ApiBody(CSR_BODY)
  @ApiOkResponse(CERTS_ONLY)
  @ApiErrorResponses(400, 401, 403, 404)
  async simpleReenroll(@Param('slug') slug: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const credentials = { principal: await this.authenticator.basic(req), certificate: this.authenticator.clientCertificate(req) };
    sendBase64(res, PKCS7_CERTS_ONLY, await this.est.reenroll(slug, credentials, req.body, this.baseUrl.for(req)));
  }

  @Post(':slug/serverkeygen')
  @Public()
  @HttpCode(200)
  @ApiSecurity('basic')
  @ApiOperation({
    operationId: 'estServerKeyGen',
    summary: 'EST: a key generated here and its certificate; the key is returned once, unencrypted PKCS#8 (RFC 7030 §4.4)',
  })
  @ApiParam(SLUG)
  @ApiConsumes('application/pkcs10')
  @ApiBody(CSR_BODY)
  @ApiOkResponse({
    description:
      'multipart/mixed: an `application/pkcs8` part (the DER PrivateKeyInfo, base64) and an ' +
      '`application/pkcs7-mime; smime-type=certs-only` part (the certificate, base64)',
    content: { 'multipart/mixed': { schema: { type: 'string' } } },
  })
  @ApiErrorResponses(400, 401, 403, 404)
  async serverKeyGen(@Param('slug') slug: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const principal = await this.authenticator.basic(req);
    const { privateKey, pkcs7 } = await this.est.serverKeyGen(slug, principal, req.body, this.baseUrl.for(req));
    const boundary = `est-${randomBytes(12).toString('hex')}`;
    const part = (type: string, der: Uint8Array) =>
      `--${boundary}\r\nContent-Type: ${type}\r\nContent-Transfer-Encoding: base64\r\n\r\n${base64Lines(der)}`;
    const body = `${part('application/pkcs8', privateKey)}${part(PKCS7_CERTS_ONLY, pkcs7)}--${boundary}--\r\n`;
    res.setHeader('Cache-Control', 'no-store');
    res.type(`multipart/mixed; boundary=${boundary}`).send(Buffer.from(body, 'ascii'));
  }
}

/** RFC 2045 base64 in 64-character lines, CRLF-terminated (what `openssl base64 -d` reads). */
function base64Lines(der: Uint8Array): string {
  const text = Buffer.from(der).toString('base64');
  return `${text.match(/.{1,64}/g)!.join('\r\n')}\r\n`;
}

/** A Buffer body, so Express adds no charset to the RFC's content type. */
function sendBase64(res: Response, contentType: string, der: Uint8Array): void {
  res.setHeader('Content-Transfer-Encoding', 'base64');
  res.type(contentType).send(Buffer.from(base64Lines(der), 'ascii'));
}
