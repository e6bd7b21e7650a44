import { NestFactory } from '@nestjs/core';
import type { Server } from 'node:http';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { SwaggerModule } from '@nestjs/swagger';
import { AppModule, AppModuleOptions } from './app.module';
import { AppConfig } from './common/config/app-config';
import { GlobalExceptionFilter } from './common/errors/global-exception.filter';
import { ExpressServerAdapter } from './common/http/express-server.adapter';
import { inputGuardMiddleware } from './common/http/input-guard.middleware';
import { securityHeadersMiddleware } from './common/http/security-headers.middleware';
import { NestPinoLogger } from './common/logging/nest-pino-logger';
import { requestLoggingMiddleware } from './common/logging/request-logging.middleware';
import { httpMetricsMiddleware } from './common/metrics/http-metrics.middleware';
import { Metrics } from './common/metrics/metrics';
import { buildOpenApiDocument, DOCS_PKI_NAME, DOCS_PLATFORM_NAME } from './common/openapi/openapi-document';
import { RequestValidationPipe } from './common/validation/request-validation.pipe';
import { PLATFORM_SCHEMA_PATH } from './platform/platform-root.controller';

/**
 * Builds the fully configured application (middleware, validation, error filter, OpenAPI) without
 * listening. `main.ts` and the end-to-end tests both use it, so tests exercise the real app.
 */
export async function createApp(options: AppModuleOptions): Promise<NestExpressApplication> {
  const { config, logger } = options;
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(options), new ExpressServerAdapter(), {
    logger: new NestPinoLogger(logger),
    abortOnError: false,
    bodyParser: false,
  });
  app.set('trust proxy', config.trustProxy);
  app.disable('x-powered-by');
  // No validator hashed from every body: NetBox sends none, and the answers that have one worth
  // revalidating (CRLs, GeoJSON layers, the maintenance calendar) set their own.
  app.set('etag', false);
  // Metrics, logging and security headers come first, so a body the parsers refuse is answered like any other request.
  app.use(httpMetricsMiddleware(app.get(Metrics)));
  app.use(requestLoggingMiddleware(logger));
  app.use(securityHeadersMiddleware);
  // Non-strict JSON: a body that is a bare string or number reaches validation and gets its 400
  // there (NetBox's "Expected a dictionary"), rather than a parser error.
  app.useBodyParser('json', { strict: false, limit: config.maxBodySize });
  app.useBodyParser('urlencoded', { extended: true, limit: config.maxBodySize });
  // Raw emails for the notices plugin's inbound-email/, as text (PostgreSQL text keeps them), up to
  // their own limit: provider notices with attachments are far larger than any JSON body.
  app.useBodyParser('text', { type: 'message/rfc822', limit: config.maxInboundEmailSize });
  // OCSP requests (RFC 6960 Appendix A.1) are DER, a few hundred bytes.
  app.useBodyParser('raw', { type: 'application/ocsp-request', limit: '16kb' });
  // EST requests (RFC 7030 §4.2.1) are a base64 PKCS#10, a few kilobytes.
  app.useBodyParser('text', { type: 'application/pkcs10', limit: '64kb' });
  // ACME requests (RFC 8555 §6.2) are JWS in JSON, parsed by the ACME module itself; a CSR in one is a few kB.
  app.useBodyParser('raw', { type: 'application/jose+json', limit: '64kb' });
  app.use(inputGuardMiddleware);
  configureCors(app, config);
  app.useGlobalPipes(new RequestValidationPipe());
  app.useGlobalFilters(new GlobalExceptionFilter(logger, config.apiV1Str));
  if (config.enableDocs) setUpDocs(app, config);
  return app;
}

/**
 * Swagger UI at /docs with both documents to pick from: the PKI API (bearer tokens) first, then the
 * inventory platform's (whose Authorize also offers `Authorization: Token <key>`). The document is
 * built on its first request, not at start: scanning every route for it took a tenth of the start.
 */
function setUpDocs(app: NestExpressApplication, config: AppConfig): void {
  const pkiDocumentUrl = `${config.apiV1Str}/openapi.json`;
  SwaggerModule.setup('docs', app, () => buildOpenApiDocument(app), {
    jsonDocumentUrl: pkiDocumentUrl,
    raw: ['json'],
    customSiteTitle: 'PKI and network inventory API',
    explorer: true,
    swaggerOptions: {
      validatorUrl: null,
      persistAuthorization: false,
      urls: [
        { url: pkiDocumentUrl, name: DOCS_PKI_NAME },
        { url: PLATFORM_SCHEMA_PATH, name: DOCS_PLATFORM_NAME },
      ],
    },
  });
}

function configureCors(app: NestExpressApplication, config: AppConfig): void {
  const origins = config.backendCorsOrigins;
  if (origins.length === 0) return;
  const any = origins.includes('*');
  app.enableCors({
    origin: any ? true : origins,
    // A wildcard origin with credentials would let any site act as a logged-in user.
    credentials: !any,
    exposedHeaders: ['X-Request-ID', 'Content-Disposition', 'Retry-After'],
    maxAge: 600,
  });
}

/**
 * Stops accepting connections, lets in-flight requests finish, then closes the application (and
 * with it the database pool). The HTTP server is drained first because Nest runs module-destroy
 * hooks before closing its server, and the GraphQL module's hook (Apollo's drain plugin) destroys
 * every open connection after a fixed 10 s: in-flight requests would die long before
 * SHUTDOWN_GRACE_SECONDS. Connections that turn idle after their last response are closed at once
 * rather than after the keep-alive timeout, so shutdown takes as long as the slowest request.
 */
export async function closeApp(app: NestExpressApplication): Promise<void> {
  const server = app.getHttpServer() as Server;
  const sweeper = setInterval(() => server.closeIdleConnections(), 50);
  try {
    // The callback runs once the last connection has ended (at once, with an error, when not listening).
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await app.close();
  } finally {
    clearInterval(sweeper);
  }
}
