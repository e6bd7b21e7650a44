import type { EntityManager } from 'typeorm';
import type { QueryParameters } from '../query/filter-parser';
import { columnOf, FieldSpec, ManyField, RelationField } from './fields';
import type { RequestScope } from './resource.service';
import type { ResourceSerializer } from './resource-serializer';

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

/** What an `afterCreate` hook may do: create dependent objects in the same transaction (recorded in the change log). */
export interface ResourceHookContext {
  manager: EntityManager;
  createChildren(definition: ResourceDefinition, items: Array<Record<string, unknown>>): Promise<ResourceRow[]>;
}

export interface ResourceActionContext {
  manager: EntityManager;
  row: ResourceRow;
  body: unknown;
  query: QueryParameters;
  scope: RequestScope;
  serializer: ResourceSerializer;
}

/** A custom operation on one object, e.g. `GET /api/dcim/front-ports/{id}/trace/`. */
export interface ResourceAction {
  name: string;
  method: 'GET' | 'POST';
  /** The object permission it needs on the object (`view` for reads). */
  permission: string;
  /** A POST that only reads: allowed to read-only tokens. */
  safePost?: boolean;
  handle(context: ResourceActionContext): Promise<unknown>;
}

/**
 * A filter beyond the field lookups (e.g. IPAM's `parent=10.0.0.0/8`): SQL over the row alias with
 * parameters named from `parameterPrefix`, or a problem for a 400.
 */
export type ExtraFilter = (
  values: string[],
  alias: string,
  parameterPrefix: string,
) => { where: string; params: Record<string, unknown> } | { problem: string };

/**
 * Body keys a resource handles itself, beyond its fields, such as a cable's `a_terminations`: how
 * they read, validate and write. Runs in the same transaction as the object's own write.
 */
export interface ResourceExtension {
  keys: readonly string[];
  /** Extra properties of the full representation, by row id (one query per page, not per row). */
  represent(manager: EntityManager, rows: readonly ResourceRow[], baseUrl: string, serializer: ResourceSerializer): Promise<Map<number, Record<string, unknown>>>;
  /** Extra properties of the change-log snapshot, by row id. */
  snapshot(manager: EntityManager, rows: readonly ResourceRow[]): Promise<Map<number, Record<string, unknown>>>;
  /** Problems with the body's keys as NetBox's `{field: [messages]}`; `existing` is null on create. */
  validate(manager: EntityManager, body: Record<string, unknown>, existing: ResourceRow | null): Promise<Record<string, string[]>>;
  /** Writes what the keys say, after the object's row is written. */
  apply(manager: EntityManager, row: ResourceRow, body: Record<string, unknown>, creating: boolean): Promise<void>;
}

export interface UniqueGroup {
  fields: readonly string[];
  nullsEqual?: boolean;
  caseInsensitive?: readonly string[];
}

export function uniqueGroups(definition: ResourceDeclaration): UniqueGroup[] {
  return (definition.uniqueTogether ?? []).map((group) => ('fields' in group ? group : { fields: group as readonly string[] }));
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
  /**
   * Sets of fields unique together. As in DRF, a set with an empty field is not checked, unless it
   * says `nullsEqual` (NetBox's extra constraints such as one device name per site when the tenant
   * is empty). `caseInsensitive` fields compare lowercased (NetBox's `Lower('name')`).
   */
  uniqueTogether?: ReadonlyArray<readonly string[] | UniqueGroup>;
  /** The field that names an object in filters on relations to it (`user=alice`); default slug, else name. */
  naturalKey?: string;
  /** A relation or generic field naming the parent recorded as the change log's `related_object` (e.g. a port's device). */
  relatedObject?: string;
  /** Runs in the creating transaction after the object is inserted (e.g. instantiating components). */
  afterCreate?: (context: ResourceHookContext, row: ResourceRow) => Promise<void>;
  /** Custom operations on one object, served at `{id}/<name>/`. */
  actions?: readonly ResourceAction[];
  /** Body keys handled beside the fields (e.g. cable terminations). */
  extensions?: readonly ResourceExtension[];
  /** Rules that need the database (e.g. both ports of a mapping on one device); run after `validate`. */
  validateAsync?: (manager: EntityManager, values: Record<string, unknown>) => Promise<Record<string, string[]>>;
  /** Query parameters beyond the field lookups. */
  extraFilters?: Record<string, ExtraFilter>;
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
  for (const [name, field] of Object.entries(declaration.fields)) {
    // An optional NOT NULL number with no default would fail its insert with a database error.
    if ((field.kind === 'integer' || field.kind === 'decimal') && !field.required && !field.nullable && field.default === undefined && !field.readOnly) {
      throw new Error(`${declaration.appLabel}.${declaration.model}.${name}: an optional number needs a default or nullable`);
    }
  }
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
