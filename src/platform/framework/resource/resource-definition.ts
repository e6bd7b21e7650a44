import { columnOf, FieldSpec, ManyField, RelationField } from './fields';

/** A row as the framework reads it: standard columns plus one property per field that has a column. */
export type ResourceRow = Record<string, unknown> & { id: number };

/** Which of the standard NetBox model attributes a resource has (all of them unless it says otherwise). */
export interface StandardAttributes {
  tags: boolean;
  customFields: boolean;
  /** Column of `created`; false when the table has none. */
  created: string | false;
  /** Column of `last_updated`; false when the table has none. */
  lastUpdated: string | false;
  /** Recorded in the change log and offered to event rules (NetBox's ChangeLoggingMixin). */
  changeLogged: boolean;
}

export interface ResourceDeclaration {
  /** Object type `app_label.model`, as NetBox's content types: `dcim.site`. */
  appLabel: string;
  /** Lowercase model name without separators: `site`, `journalentry`. */
  model: string;
  /** URL segment of the list endpoint: `sites` in `/api/dcim/sites/`. */
  path: string;
  /** Path prefix of the app; default `/api/<appLabel>/` (plugins: `/api/plugins/<name>/`). */
  apiPrefix?: string;
  /** Human name used in messages: "site with this name already exists." */
  verboseName: string;
  table: string;
  fields: Record<string, FieldSpec>;
  /** The object's `display` string. */
  display: (row: ResourceRow) => string;
  /** Fields of the brief and nested representations, besides `id`, `url` and `display`. */
  brief: readonly string[];
  /** Default ordering: field names, `-` for descending. `id` is always the final tie-breaker. */
  ordering: readonly string[];
  /** GraphQL query name (default: snake_case of the model). */
  graphqlName?: string;
  standard?: Partial<StandardAttributes>;
  /**
   * The table belongs to another module (e.g. `users`): no schema is generated for it, and relations
   * to it target this TypeORM entity name.
   */
  externalEntity?: () => Function;
  /** Only GET routes. */
  readOnly?: boolean;
  /** Sets of fields unique together: the message names the first field. */
  uniqueTogether?: ReadonlyArray<readonly string[]>;
  /** The field that names an object in filters on relations to it (`user=alice`); default slug, else name. */
  naturalKey?: string;
  /** A relation or generic field naming the parent recorded as the change log's `related_object` (e.g. a port's device). */
  relatedObject?: string;
  /** Cross-field rules run after per-field validation; returns NetBox's `{field: [messages]}`. */
  validate?: (values: Record<string, unknown>) => Record<string, string[]>;
}

export interface ResourceDefinition extends ResourceDeclaration {
  readonly objectType: string;
  readonly standardAttributes: StandardAttributes;
  readonly graphqlQueryName: string;
  readonly listPath: string;
}

const DEFAULT_STANDARD: StandardAttributes = {
  tags: true,
  customFields: true,
  created: 'created',
  lastUpdated: 'last_updated',
  changeLogged: true,
};

/** Declares a platform model; everything else (entity, routes, serializer, filters, GraphQL) derives from this. */
export function defineResource(declaration: ResourceDeclaration): ResourceDefinition {
  const apiPrefix = declaration.apiPrefix ?? `/api/${declaration.appLabel}/`;
  return {
    ...declaration,
    objectType: `${declaration.appLabel}.${declaration.model}`,
    standardAttributes: { ...DEFAULT_STANDARD, ...declaration.standard },
    graphqlQueryName: declaration.graphqlName ?? declaration.verboseName.replace(/[- ]/g, '_'),
    listPath: `${apiPrefix}${declaration.path}/`,
  };
}

/** Fields backed by a column of the resource's own table, with that column. */
export function columnFields(definition: ResourceDefinition): Array<{ name: string; field: FieldSpec; column: string }> {
  return Object.entries(definition.fields).flatMap(([name, field]) => {
    const column = columnOf(name, field);
    return column ? [{ name, field, column }] : [];
  });
}

export function relationFields(definition: ResourceDefinition): Array<{ name: string; field: RelationField; column: string }> {
  return columnFields(definition).filter(
    (entry): entry is { name: string; field: RelationField; column: string } => entry.field.kind === 'relation',
  );
}

export function manyFields(definition: ResourceDefinition): Array<{ name: string; field: ManyField }> {
  return Object.entries(definition.fields).flatMap(([name, field]) => (field.kind === 'many' ? [{ name, field }] : []));
}

/** Join table of a many-to-many field and its two columns. */
export function joinTableOf(definition: ResourceDefinition, name: string): { table: string; source: string; target: string } {
  const field = definition.fields[name] as ManyField;
  const target = field.target();
  const source = `${definition.model}_id`;
  const targetColumn = `${target.model}_id`;
  return { table: `${definition.table}_${name}`, source, target: targetColumn === source ? `to_${targetColumn}` : targetColumn };
}

/** Generic relation columns `<name>_type_id` and `<name>_id`. */
export function genericColumns(name: string): { type: string; id: string } {
  return { type: `${name}_type_id`, id: `${name}_id` };
}

/** A double-quoted SQL identifier; names come from declarations, never from requests. */
export function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
