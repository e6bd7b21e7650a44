import { ApiProperty } from '@nestjs/swagger';

/** The body of every error answered by the API (see GlobalExceptionFilter). */
export class ErrorBodyDto {
  @ApiProperty({
    description:
      'A message, a structured object with a machine-readable `code` (e.g. `policy_violation`), or for ' +
      'validation failures a list of `{loc, msg, type}` naming each bad field.',
    oneOf: [
      { type: 'string' },
      { type: 'object', additionalProperties: true },
      {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            loc: { type: 'array', items: { oneOf: [{ type: 'string' }, { type: 'integer' }] } },
            msg: { type: 'string' },
            type: { type: 'string' },
          },
        },
      },
    ],
    example: 'Not Found',
  })
  detail: unknown;
}
