import { Controller, Get, Header, Param, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { Public } from '../../common/auth/authenticated.decorator';
import { NotFoundError } from '../../common/errors/common-errors';
import { EXPLORER_ASSETS, EXPLORER_CSP, explorerHtml } from './graphql-explorer';

export const GRAPHQL_PATH = '/graphql/';
const EXPLORER_PATH = 'graphiql';

/**
 * The GraphiQL explorer at `/graphiql/`, with its scripts and styles served from this origin so it
 * works offline. The page itself is public; the queries it sends need credentials like any other.
 */
@ApiExcludeController()
@Controller(EXPLORER_PATH)
export class GraphqlExplorerController {
  @Get()
  @Public()
  @Header('Content-Type', 'text/html; charset=utf-8')
  @Header('Content-Security-Policy', EXPLORER_CSP)
  page(): string {
    return explorerHtml(GRAPHQL_PATH, `/${EXPLORER_PATH}/static/`);
  }

  @Get('static/:asset')
  @Public()
  asset(@Param('asset') name: string, @Res() response: Response): void {
    const asset = EXPLORER_ASSETS[name];
    if (!asset) throw new NotFoundError();
    response.setHeader('Cache-Control', 'public, max-age=86400');
    response.type(asset.contentType).sendFile(asset.file);
  }
}
