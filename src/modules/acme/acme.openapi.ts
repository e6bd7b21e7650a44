import { applyDecorators } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';

const PROBLEM_SCHEMA = {
  type: 'object',
  required: ['type', 'detail'],
  properties: {
    type: { type: 'string', example: 'urn:ietf:params:acme:error:badNonce' },
    detail: { type: 'string' },
    status: { type: 'integer' },
    algorithms: { type: 'array', items: { type: 'string' }, description: 'badSignatureAlgorithm: the algorithms accepted' },
  },
};

const PROBLEM_DESCRIPTIONS: Record<number, string> = {
  400: 'An RFC 8555 problem document (badNonce, malformed, badSignatureAlgorithm, badCSR, rejectedIdentifier, …)',
  403: 'unauthorized or orderNotReady',
  404: 'No such CA directory or resource (malformed)',
  409: 'keyChange: another account has the new key; Location names it',
  415: 'The body is not application/jose+json (malformed)',
};

/** The common parts of an ACME operation: tag, the CA slug, and its problem documents. */
export function AcmeOperation(operationId: string, summary: string, ...problemStatuses: number[]): MethodDecorator {
  return applyDecorators(
    ApiTags('acme'),
    ApiOperation({ operationId, summary }),
    ApiParam({ name: 'slug', description: 'The CA slug, as in its CRL and OCSP URLs' }),
    ...problemStatuses.map((status) =>
      ApiResponse({
        status,
        description: PROBLEM_DESCRIPTIONS[status],
        content: { 'application/problem+json': { schema: PROBLEM_SCHEMA } },
      }),
    ),
  );
}

/** A POST body: a JWS in flattened JSON serialization (RFC 8555 §6.2); `payload` is empty for POST-as-GET. */
export function AcmeJwsBody(payload: string): MethodDecorator {
  return applyDecorators(
    ApiConsumes('application/jose+json'),
    ApiBody({
      description: `A flattened JWS (protected header alg, nonce, url, jwk or kid). Payload: ${payload}`,
      schema: {
        type: 'object',
        required: ['protected', 'payload', 'signature'],
        properties: { protected: { type: 'string' }, payload: { type: 'string' }, signature: { type: 'string' } },
      },
    }),
  );
}

/** A JSON answer (an ACME resource object) with the given status. */
export function AcmeResource(status: number, description: string, properties: Record<string, object> = {}): MethodDecorator {
  return ApiResponse({
    status,
    description,
    content: { 'application/json': { schema: { type: 'object', properties } } },
  });
}

const STRING = { type: 'string' } as const;
const STRINGS = { type: 'array', items: STRING } as const;
const IDENTIFIERS = { type: 'array', items: { type: 'object', properties: { type: STRING, value: STRING } } } as const;

export const ACME_SCHEMAS = {
  directory: {
    newNonce: STRING,
    newAccount: STRING,
    newOrder: STRING,
    revokeCert: STRING,
    keyChange: STRING,
    renewalInfo: STRING,
    meta: { type: 'object', properties: { externalAccountRequired: { type: 'boolean' } } },
  },
  account: { status: STRING, contact: STRINGS, orders: STRING },
  orders: { orders: STRINGS },
  renewalInfo: { suggestedWindow: { type: 'object', properties: { start: STRING, end: STRING } } },
  order: {
    status: STRING,
    expires: STRING,
    identifiers: IDENTIFIERS,
    authorizations: STRINGS,
    finalize: STRING,
    certificate: STRING,
    error: PROBLEM_SCHEMA,
    replaces: STRING,
  },
  authorization: {
    identifier: { type: 'object', properties: { type: STRING, value: STRING } },
    status: STRING,
    expires: STRING,
    challenges: { type: 'array', items: { type: 'object' } },
    wildcard: { type: 'boolean' },
  },
  challenge: { type: STRING, url: STRING, token: STRING, status: STRING, validated: STRING, error: PROBLEM_SCHEMA },
};
