import { ApiOkResponse } from '@nestjs/swagger';

/**
 * PEM is text; DER certificates and CRLs are bytes (`format: binary`), so SDK generators type them as
 * a string and a blob respectively.
 */
const FILE_SCHEMAS = {
  'application/x-pem-file': { type: 'string' },
  'application/pkix-cert': { type: 'string', format: 'binary' },
  'application/pkix-crl': { type: 'string', format: 'binary' },
} as const;

export type FileMediaType = keyof typeof FILE_SCHEMAS;

/** A 200 whose body is a file in one of `mediaTypes` (the media types the handler sends). */
export function ApiFileResponse(description: string, ...mediaTypes: FileMediaType[]): MethodDecorator & ClassDecorator {
  return ApiOkResponse({
    description,
    content: Object.fromEntries(mediaTypes.map((mediaType) => [mediaType, { schema: { ...FILE_SCHEMAS[mediaType] } }])),
  });
}
