import type { ResourceDefinition } from './resource-definition';

/**
 * The fields of a model that a representation handed to someone beyond the REST read (an event
 * delivery, a rendered configuration) must leave out: write-only fields always, `secret` fields
 * unless the recipient holds `change` on the object.
 */
export function withheldFields(definition: ResourceDefinition, mayChange: boolean): string[] {
  return Object.entries(definition.fields)
    .filter(([, field]) => field.writeOnly || (field.secret && !mayChange))
    .map(([name]) => name);
}

/** The object without the named keys (null stays null). */
export function withoutFields<T extends Record<string, unknown>>(object: T, names: readonly string[]): T;
export function withoutFields<T extends Record<string, unknown>>(object: T | null, names: readonly string[]): T | null;
export function withoutFields<T extends Record<string, unknown>>(object: T | null, names: readonly string[]): T | null {
  if (object === null || names.length === 0) return object;
  const copy: Record<string, unknown> = { ...object };
  for (const name of names) delete copy[name];
  return copy as T;
}
