import { Validator, type Schema } from '@cfworker/json-schema';
import type { EntityManager } from 'typeorm';

/**
 * JSON Schema for config context profiles, with @cfworker/json-schema: it interprets a schema
 * (drafts 4, 7, 2019-09 and 2020-12, picked by `$schema`, 2020-12 otherwise) rather than compiling
 * it to JavaScript, so a user's schema never becomes code.
 */
const DRAFTS: Record<string, '4' | '7' | '2019-09' | '2020-12'> = {
  'http://json-schema.org/draft-04/schema#': '4',
  'http://json-schema.org/draft-07/schema#': '7',
  'https://json-schema.org/draft/2019-09/schema': '2019-09',
  'https://json-schema.org/draft/2020-12/schema': '2020-12',
};

function validatorFor(schema: Schema): Validator {
  const declared = typeof schema.$schema === 'string' ? DRAFTS[schema.$schema] : undefined;
  return new Validator(schema, declared ?? '2020-12', false);
}

/** A profile's `schema`, as NetBox checks it: empty, or an object schema that defines properties and can be used. */
export function profileSchemaProblems(value: unknown): string[] {
  if (value === null || value === '') return [];
  if (typeof value !== 'object' || Array.isArray(value)) return ['Invalid JSON schema definition'];
  const schema = value as Schema;
  if (typeof schema.$schema === 'string' && !DRAFTS[schema.$schema])
    return [`Invalid JSON schema definition: unknown $schema ${schema.$schema}`];
  const properties = schema.properties as unknown;
  if (!properties || typeof properties !== 'object' || Object.keys(properties).length === 0) return ['JSON schema must define properties'];
  try {
    validatorFor(schema).validate({});
  } catch (error) {
    return [`Invalid JSON schema definition: ${(error as Error).message}`];
  }
  return [];
}

/** A config context's `data` against its profile's schema (when both are set): NetBox's non-field error. */
export async function contextProfileProblems(manager: EntityManager, values: Record<string, unknown>): Promise<Record<string, string[]>> {
  if (values.profile_id == null || values.data == null) return {};
  const [profile] = (await manager.query('SELECT schema FROM extras_configcontextprofile WHERE id = $1', [values.profile_id])) as Array<{
    schema: Schema | null;
  }>;
  if (!profile?.schema) return {};
  let result;
  try {
    result = validatorFor(profile.schema).validate(values.data);
  } catch (error) {
    return { profile: [`Invalid JSON schema definition: ${(error as Error).message}`] };
  }
  if (result.valid) return {};
  // The deepest error says what is wrong; the others are the enclosing schemas failing because of it.
  const cause = result.errors[result.errors.length - 1];
  return { non_field_errors: [`Data does not conform to profile schema: ${cause.error} (at ${cause.instanceLocation})`] };
}
