import { Controller, Get, Head, Param, Post, Query, Req, Res, UseFilters } from '@nestjs/common';
import { ApiParam, ApiQuery, ApiResponse } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../../common/auth/authenticated.decorator';
import { PublicBaseUrl } from '../pki/public-base-url';
import { ACME_SCHEMAS, AcmeJwsBody, AcmeOperation, AcmeResource } from './acme.openapi';
import { AcmeProblem } from './acme-problem';
import { AcmeProblemFilter } from './acme-problem.filter';
import { type AcmeDirectoryContext, type AcmeReply, AcmeService } from './acme.service';

/** The media type of every ACME POST body (RFC 8555 §6.2). */
export const JOSE_JSON = 'application/jose+json';

/**
 * The ACME server of each CA, at /acme/<ca-slug>/ (RFC 8555). Requests authenticate by their JWS, not by the API's
 * tokens.
 */
@Controller('acme/:slug')
@UseFilters(AcmeProblemFilter)
export class AcmeController {
  constructor(
    private readonly acme: AcmeService,
    private readonly baseUrl: PublicBaseUrl,
  ) {}

  @Get('directory')
  @Public()
  @AcmeOperation('getAcmeDirectory', 'ACME directory of a CA (RFC 8555 §7.1.1)', 404)
  @AcmeResource(200, 'The directory', ACME_SCHEMAS.directory)
  async directory(@Param('slug') slug: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const context = await this.context(slug, req);
    await this.send(res, context, { status: 200, body: this.acme.directory(context) });
  }

  @Head('new-nonce')
  @Public()
  @AcmeOperation('headAcmeNonce', 'A fresh nonce in Replay-Nonce (§7.2)', 404)
  @ApiResponse({ status: 200, description: 'Replay-Nonce carries the nonce' })
  async headNonce(@Param('slug') slug: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    await this.send(res, await this.context(slug, req), { status: 200, body: undefined });
  }

  @Get('new-nonce')
  @Public()
  @AcmeOperation('getAcmeNonce', 'A fresh nonce in Replay-Nonce (§7.2)', 404)
  @ApiResponse({ status: 204, description: 'Replay-Nonce carries the nonce' })
  async getNonce(@Param('slug') slug: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    await this.send(res, await this.context(slug, req), { status: 204, body: undefined });
  }

  @Post('new-account')
  @Public()
  @AcmeOperation('createAcmeAccount', 'Create or find an account by its key (§7.3), with External Account Binding', 400, 403, 404, 415)
  @AcmeJwsBody('{contact?, termsOfServiceAgreed?, onlyReturnExisting?, externalAccountBinding?}; signed with jwk')
  @AcmeResource(201, 'Created; Location is the account URL (the kid of later requests)', ACME_SCHEMAS.account)
  @AcmeResource(200, 'An account with this key exists already', ACME_SCHEMAS.account)
  async newAccount(@Param('slug') slug: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const context = await this.context(slug, req);
    const request = await this.acme.verify(context, jwsBody(req), this.requestUrl(context, req), 'jwk');
    await this.send(res, context, await this.acme.newAccount(context, request));
  }

  @Post('account/:id')
  @Public()
  @AcmeOperation('updateAcmeAccount', 'Read (POST-as-GET), update contact or deactivate the account (§7.3.2, §7.3.6)', 400, 403, 404, 415)
  @ApiParam({ name: 'id', description: 'The resource id, from its URL' })
  @AcmeJwsBody('empty, or {contact} or {status: "deactivated"}')
  @AcmeResource(200, 'The account', ACME_SCHEMAS.account)
  async account(@Param('slug') slug: string, @Param('id') id: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const context = await this.context(slug, req);
    const request = await this.acme.verify(context, jwsBody(req), this.requestUrl(context, req), 'kid');
    await this.send(res, context, await this.acme.updateAccount(context, request, resourceId(id)));
  }

  @Get('renewal-info/:certId')
  @Public()
  @AcmeOperation('getAcmeRenewalInfo', "A certificate's suggested renewal window (RFC 9773)", 400, 404)
  @ApiParam({ name: 'certId', description: 'base64url(AKI keyIdentifier) "." base64url(serial number)' })
  @AcmeResource(200, 'suggestedWindow {start, end}; Retry-After says when to ask again', ACME_SCHEMAS.renewalInfo)
  async renewalInfo(
    @Param('slug') slug: string,
    @Param('certId') certId: string,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const context = await this.context(slug, req);
    await this.send(res, context, await this.acme.renewalInfo(context, certId));
  }

  @Post('account/:id/orders')
  @Public()
  @AcmeOperation('listAcmeAccountOrders', 'The account\'s orders (§7.1.2.1), a page at a time with Link rel="next"', 400, 403, 404, 415)
  @ApiParam({ name: 'id', description: 'The account id, from its URL' })
  @ApiQuery({ name: 'after', required: false, description: 'The last order id of the previous page (from the next link)' })
  @AcmeJwsBody('empty (POST-as-GET)')
  @AcmeResource(200, 'Order URLs, oldest first; invalid orders are left out', ACME_SCHEMAS.orders)
  async accountOrders(
    @Param('slug') slug: string,
    @Param('id') id: string,
    @Query('after') after: string | undefined,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const context = await this.context(slug, req);
    const request = await this.acme.verify(context, jwsBody(req), this.requestUrl(context, req), 'kid');
    const cursor = after === undefined ? 0 : resourceId(after);
    await this.send(res, context, await this.acme.accountOrders(context, request, resourceId(id), cursor));
  }

  @Post('key-change')
  @Public()
  @AcmeOperation(
    'changeAcmeAccountKey',
    'Roll the account key over (§7.3.5): the payload is a JWS signed by the new key',
    400,
    403,
    404,
    409,
    415,
  )
  @AcmeJwsBody('A flattened JWS: protected {alg, jwk: new key, url: this URL}, payload {account: account URL, oldKey: current jwk}')
  @AcmeResource(200, 'The account, now known by the new key', ACME_SCHEMAS.account)
  async keyChange(@Param('slug') slug: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const context = await this.context(slug, req);
    const request = await this.acme.verify(context, jwsBody(req), this.requestUrl(context, req), 'kid');
    await this.send(res, context, await this.acme.keyChange(context, request));
  }

  @Post('new-order')
  @Public()
  @AcmeOperation('createAcmeOrder', 'Order a certificate for DNS names (§7.4); checked against the issuance policy', 400, 403, 404, 415)
  @AcmeJwsBody('{identifiers: [{type: "dns", value}]}')
  @AcmeResource(201, 'The order; Location is its URL', ACME_SCHEMAS.order)
  async newOrder(@Param('slug') slug: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const context = await this.context(slug, req);
    const request = await this.acme.verify(context, jwsBody(req), this.requestUrl(context, req), 'kid');
    await this.send(res, context, await this.acme.newOrder(context, request));
  }

  @Post('order/:id')
  @Public()
  @AcmeOperation('getAcmeOrder', 'An order (POST-as-GET)', 400, 403, 404, 415)
  @ApiParam({ name: 'id', description: 'The resource id, from its URL' })
  @AcmeJwsBody('empty (POST-as-GET)')
  @AcmeResource(200, 'The order', ACME_SCHEMAS.order)
  async order(@Param('slug') slug: string, @Param('id') id: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const context = await this.context(slug, req);
    const request = await this.acme.verify(context, jwsBody(req), this.requestUrl(context, req), 'kid');
    await this.send(res, context, await this.acme.getOrder(context, request, resourceId(id)));
  }

  @Post('order/:id/finalize')
  @Public()
  @AcmeOperation('finalizeAcmeOrder', 'Finalize a ready order with a CSR (§7.4); issues as the bound service account', 400, 403, 404, 415)
  @ApiParam({ name: 'id', description: 'The resource id, from its URL' })
  @AcmeJwsBody('{csr: base64url DER PKCS#10}')
  @AcmeResource(200, 'The order, valid, with its certificate URL', ACME_SCHEMAS.order)
  async finalize(@Param('slug') slug: string, @Param('id') id: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const context = await this.context(slug, req);
    const request = await this.acme.verify(context, jwsBody(req), this.requestUrl(context, req), 'kid');
    await this.send(res, context, await this.acme.finalize(context, request, resourceId(id)));
  }

  @Post('authz/:id')
  @Public()
  @AcmeOperation('getAcmeAuthorization', 'An authorization (POST-as-GET), or its deactivation (§7.5, §7.5.2)', 400, 403, 404, 415)
  @ApiParam({ name: 'id', description: 'The resource id, from its URL' })
  @AcmeJwsBody('empty, or {status: "deactivated"}')
  @AcmeResource(200, 'The authorization', ACME_SCHEMAS.authorization)
  async authorization(@Param('slug') slug: string, @Param('id') id: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const context = await this.context(slug, req);
    const request = await this.acme.verify(context, jwsBody(req), this.requestUrl(context, req), 'kid');
    await this.send(res, context, await this.acme.getAuthorization(context, request, resourceId(id)));
  }

  @Post('chall/:id')
  @Public()
  @AcmeOperation('respondToAcmeChallenge', 'Ask for validation ({}) or read (POST-as-GET) a challenge (§7.5.1)', 400, 403, 404, 415)
  @ApiParam({ name: 'id', description: 'The resource id, from its URL' })
  @AcmeJwsBody('{} to validate, empty to read')
  @AcmeResource(200, 'The challenge; Link rel="up" names its authorization', ACME_SCHEMAS.challenge)
  async challenge(@Param('slug') slug: string, @Param('id') id: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const context = await this.context(slug, req);
    const request = await this.acme.verify(context, jwsBody(req), this.requestUrl(context, req), 'kid');
    await this.send(res, context, await this.acme.respondToChallenge(context, request, resourceId(id)));
  }

  @Post('cert/:id')
  @Public()
  @AcmeOperation('getAcmeCertificate', "An order's certificate chain, leaf first (POST-as-GET, §7.4.2)", 400, 403, 404, 415)
  @ApiParam({ name: 'id', description: 'The order id' })
  @AcmeJwsBody('empty (POST-as-GET)')
  @ApiResponse({ status: 200, description: 'PEM chain', content: { 'application/pem-certificate-chain': { schema: { type: 'string' } } } })
  async certificate(@Param('slug') slug: string, @Param('id') id: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const context = await this.context(slug, req);
    const request = await this.acme.verify(context, jwsBody(req), this.requestUrl(context, req), 'kid');
    await this.send(res, context, await this.acme.certificate(request, resourceId(id)));
  }

  @Post('revoke-cert')
  @Public()
  @AcmeOperation(
    'revokeAcmeCertificate',
    "Revoke a certificate (§7.6): signed with kid by the account that ordered it, or with jwk by the certificate's key",
    400,
    403,
    404,
    415,
  )
  @AcmeJwsBody('{certificate: base64url DER, reason?: RFC 5280 code 0, 1, 3, 4, 5 or 9}')
  @ApiResponse({ status: 200, description: 'Revoked: listed in the CRL and answered revoked by OCSP' })
  async revokeCert(@Param('slug') slug: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const context = await this.context(slug, req);
    const request = await this.acme.verify(context, jwsBody(req), this.requestUrl(context, req), 'jwk-or-kid');
    await this.send(res, context, await this.acme.revokeCert(context, request));
  }

  private context(slug: string, req: Request): Promise<AcmeDirectoryContext> {
    return this.acme.context(slug, this.baseUrl.for(req));
  }

  /** The URL the client addressed, as the JWS url header must name it (§6.4). */
  private requestUrl(context: AcmeDirectoryContext, req: Request): string {
    return `${context.baseUrl}${req.originalUrl}`;
  }

  /** Every answer: a fresh Replay-Nonce, the directory as Link rel="index", no caching (§6.5, §7.1). */
  private async send(res: Response, context: AcmeDirectoryContext, reply: AcmeReply): Promise<void> {
    res.setHeader('Replay-Nonce', await this.acme.issueNonce());
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Link', [`<${context.urls.directory}>;rel="index"`, ...(reply.links ?? [])]);
    if (reply.location) res.setHeader('Location', reply.location);
    if (reply.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(reply.retryAfterSeconds));
    res.status(reply.status);
    if (reply.body === undefined) {
      res.end();
    } else if (Buffer.isBuffer(reply.body)) {
      res.type(reply.contentType ?? 'application/octet-stream').send(reply.body);
    } else {
      res.type('application/json').send(JSON.stringify(reply.body));
    }
  }
}

/** The JSON of a POST body sent as application/jose+json (§6.2); any other media type is refused with 415. */
function jwsBody(req: Request): unknown {
  if (!req.is(JOSE_JSON)) throw new AcmeProblem('malformed', `POST bodies must be ${JOSE_JSON}`, 415);
  const raw: unknown = req.body;
  if (!Buffer.isBuffer(raw)) throw new AcmeProblem('malformed', 'The request has no body');
  try {
    return JSON.parse(raw.toString('utf8')) as unknown;
  } catch {
    throw new AcmeProblem('malformed', 'The request body is not JSON');
  }
}

function resourceId(text: string): number {
  if (!/^[1-9]\d{0,9}$/.test(text) || Number(text) > 2_147_483_647) throw new AcmeProblem('malformed', 'No such resource', 404);
  return Number(text);
}
