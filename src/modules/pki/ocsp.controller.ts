import { Controller, Get, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../../common/auth/authenticated.decorator';
import { OcspHttpResponse, OcspService } from './ocsp.service';

const OCSP_RESPONSE = {
  description:
    'A DER OCSPResponse (RFC 6960). Errors are OCSP statuses inside a 200: malformedRequest for a body or path that is not an ' +
    'OCSPRequest, unauthorized for a CA this service does not have or a certificate another CA issued.',
  content: { 'application/ocsp-response': { schema: { type: 'string', format: 'binary' } } },
} as const;

/** Where a GET request's base64 starts: after `/ocsp/<slug>/`. */
const GET_PREFIX = /^\/ocsp\/[^/]+\//;

/**
 * The OCSP responder (RFC 6960 Appendix A, RFC 5019): POST with a DER body, or GET with the request
 * base64-encoded (then URL-encoded) in the path, so caches and CDNs can keep the answers.
 */
@ApiTags('public')
@Controller('ocsp')
export class OcspController {
  constructor(private readonly ocsp: OcspService) {}

  @Post(':slug')
  @Public()
  @HttpCode(200)
  @ApiOperation({ operationId: 'postOcspRequest', summary: "OCSP: a certificate's status, from its CA's responder" })
  @ApiParam({ name: 'slug', description: 'The CA slug, as in the AIA OCSP URL of its certificates' })
  @ApiConsumes('application/ocsp-request')
  @ApiBody({ description: 'A DER OCSPRequest', schema: { type: 'string', format: 'binary' } })
  @ApiOkResponse(OCSP_RESPONSE)
  async post(@Param('slug') slug: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const body: unknown = req.body;
    const der = Buffer.isBuffer(body) ? body : Buffer.alloc(0);
    send(res, await this.ocsp.respond(slug, der));
  }

  @Get(':slug/*request')
  @Public()
  @ApiOperation({ operationId: 'getOcspRequest', summary: "OCSP: a certificate's status, the request base64 in the path (RFC 5019)" })
  @ApiParam({ name: 'slug', description: 'The CA slug, as in the AIA OCSP URL of its certificates' })
  @ApiParam({ name: 'request', description: 'The DER OCSPRequest, base64, URL-encoded (it may contain `/`)' })
  @ApiOkResponse(OCSP_RESPONSE)
  async get(@Param('slug') slug: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    send(res, await this.ocsp.respond(slug, base64Request(req.path)));
  }
}

/** The DER of a GET request; anything that is not base64 yields an empty request, answered malformedRequest. */
function base64Request(path: string): Buffer {
  let encoded: string;
  try {
    encoded = decodeURIComponent(path.replace(GET_PREFIX, ''));
  } catch {
    return Buffer.alloc(0);
  }
  return /^[A-Za-z0-9+/]+={0,2}$/.test(encoded) ? Buffer.from(encoded, 'base64') : Buffer.alloc(0);
}

/** RFC 5019 §6: cacheable answers carry Last-Modified, Expires and max-age up to their nextUpdate. */
function send(res: Response, answer: OcspHttpResponse): void {
  if (answer.nextUpdate) {
    const maxAge = Math.max(0, Math.floor((answer.nextUpdate.getTime() - Date.now()) / 1000));
    res.setHeader('Cache-Control', `public, max-age=${maxAge}, no-transform, must-revalidate`);
    res.setHeader('Expires', answer.nextUpdate.toUTCString());
  } else {
    res.setHeader('Cache-Control', 'no-store');
  }
  res.type('application/ocsp-response').send(answer.der);
}
