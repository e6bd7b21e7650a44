import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { API_LICENSE } from './api-license';
import { ErrorBodyDto } from './error-body.dto';

/** The documents' names in the Swagger UI's picker (`/docs/?urls.primaryName=<name>` opens one). */
export const DOCS_PKI_NAME = 'PKI API';
export const DOCS_PLATFORM_NAME = 'Inventory platform API';

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/**
 * Builds the OpenAPI document from the controllers' decorators. operationIds come from the
 * decorators (not from class and method names, which refactors change), and every operation gets a
 * documented 500, since any of them can fail unexpectedly. Only `@Authenticated` adds a security
 * requirement, so an operation without one is a public route and says so with `security: []`.
 */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const info = new DocumentBuilder()
    .setTitle('PKI and network inventory API')
    .setDescription('Certificate authority service and network inventory platform.')
    .setVersion('1')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' })
    // EST (RFC 7030): a service account's name and token.
    .addBasicAuth({ type: 'http', scheme: 'basic' }, 'basic')
    .build();
  const document = SwaggerModule.createDocument(app, info, {
    extraModels: [ErrorBodyDto],
    operationIdFactory: (controllerKey, methodKey) => `${controllerKey}_${methodKey}`,
  });
  for (const pathItem of Object.values(document.paths)) {
    for (const method of HTTP_METHODS) {
      const operation = pathItem[method];
      if (!operation) continue;
      operation.security ??= [];
      operation.responses['500'] ??= {
        description: 'Unexpected error (logged with the request id)',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBodyDto' } } },
      };
    }
  }
  document.info.license = { ...API_LICENSE };
  document.servers = [{ url: '/' }];
  return document;
}
