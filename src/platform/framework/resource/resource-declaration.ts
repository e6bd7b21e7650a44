import type { EntityManager } from 'typeorm';
import type { Principal } from '../../../common/auth/principal';
import type { QueryParameters } from '../query/filter-parser';
import type { EgressPolicy } from '../../../common/http/egress-policy';

/**
 * The vocabulary of platform declarations: field specs, resource declarations, hooks, actions and
 * extensions, as types only. Nothing here interprets a declaration (fields.ts builds field specs,
 * resource-definition.ts defines resources, the rest of framework/ serves them), so a declaration
 * never depends on the code that runs it.
 */

export type OnDelete = 'CASCADE' | 'SET NULL' | 'PROTECT';

interface CommonOptions {
  /** Column name; defaults to the field name (`<name>_id` for relations). */
  column?: string;
  /** Shown on read, ignored on write (e.g. computed or server-set values). */
  readOnly?: boolean;
  /** Accepted on write, never shown on read. */
  writeOnly?: boolean;
  /**
   * A credential (a BGP password): what the platform hands on beyond the REST read (event-rule
   * deliveries, rendered configurations) carries it only for a user holding `change` on the object.
   */
  secret?: boolean;
  /** Matched by the `q` filter (case-insensitive substring). */
  search?: boolean;
  /** Unique across the table; checked before writing so the error names the field. */
  unique?: boolean;
  /** Not offered as a query filter. */
  noFilter?: boolean;
  /** Set on create, refused on update (NetBox's read-only-after-create fields). */
  createOnly?: boolean;
  /** How messages name the field ("ASN with this ASN already exists."); default: the name with spaces. */
  label?: string;
}

export interface TextField extends CommonOptions {
  kind: 'text';
  /** Unlimited (`text` column) when absent. */
  maxLength?: number;
  required?: boolean;
  /** Null allowed (else blank means `''`). */
  nullable?: boolean;
  pattern?: { regex: RegExp; message: string };
  default?: string;
  /** PostgreSQL network types (IPAM), or a `box` (a derived bounding box), stored as such, read and filtered as text. */
  columnType?: 'inet' | 'cidr' | 'box';
  /** Parses and normalises a written value (e.g. an IP address), replacing the string checks. */
  parse?: (raw: unknown) => { value: string } | { problem: string };
}

export interface IntegerField extends CommonOptions {
  kind: 'integer';
  min?: number;
  max?: number;
  required?: boolean;
  nullable?: boolean;
  default?: number;
  /** `bigint` column (e.g. 32-bit unsigned ASNs); read back as a number. */
  big?: boolean;
}

export interface DecimalField extends CommonOptions {
  kind: 'decimal';
  precision: number;
  scale: number;
  min?: number;
  max?: number;
  required?: boolean;
  nullable?: boolean;
  default?: number;
}

export interface BooleanField extends CommonOptions {
  kind: 'boolean';
  default: boolean;
}

export interface Choice {
  value: string;
  label: string;
  /** Shown as the choice's `color` beside value and label (e.g. a lifecycle status on a map). */
  color?: string;
}

export interface ChoiceField extends CommonOptions {
  kind: 'choice';
  choices: readonly Choice[];
  required?: boolean;
  default?: string;
  /** `''` allowed (NetBox's blank choice). */
  blank?: boolean;
  /** Values are integers (NetBox's rack widths, console speeds): read as numbers, written as numbers or numeric strings. */
  numeric?: boolean;
}

export interface DateField extends CommonOptions {
  kind: 'date' | 'datetime';
  required?: boolean;
  nullable?: boolean;
  /** `'now'`: the database fills in the time of the insert when the value is not given (Django's `default=now`). */
  default?: 'now';
}

export interface JsonField extends CommonOptions {
  kind: 'json';
  /** Must be given on create (and PUT). */
  required?: boolean;
  nullable?: boolean;
  /** Default for new rows; null when absent. */
  default?: () => unknown;
  /** Reads another notation of a written value into the stored one (pathways: WKT text into GeoJSON), before `validate`. */
  parse?: (value: unknown) => unknown;
  /** Checks a written value; returns problems (empty when valid). */
  validate?: (value: unknown) => string[];
}

/** A list of strings stored as `text[]` (e.g. a permission's actions). */
export interface StringListField extends CommonOptions {
  kind: 'string-list';
  /** When given, every item must be one of these. */
  choices?: readonly string[];
  /** Items must match this (when no choices). */
  itemPattern?: { regex: RegExp; message: string };
  required?: boolean;
}

export interface RelationField extends CommonOptions {
  kind: 'relation';
  target: () => ResourceDefinition;
  required?: boolean;
  onDelete: OnDelete;
  /** Filled from the caller on create when not given (e.g. `created_by`, a token's `user`). */
  defaultToCurrentUser?: boolean;
  /** With `readOnly`: set to the caller on every create and update (whoever last wrote the object, e.g. an event rule's `owner`). */
  setToWriter?: boolean;
  /** With SET NULL: other columns reset at the same time (e.g. a port's `cable_end` with its `cable`). */
  clearAlso?: Record<string, unknown>;
  /**
   * The bare filter `<name>=` takes the target's id, as a plugin filterset whose `Meta.fields` names
   * the key does (`?closure=5`), instead of its natural key; `<name>__<key>=` still names it.
   */
  filterById?: boolean;
}

/** Many-to-many through a join table `<table>_<field>`. */
export interface ManyField extends CommonOptions {
  kind: 'many';
  target: () => ResourceDefinition;
  required?: boolean;
}

/**
 * A generic foreign key: `<name>_type` (an object type, written as `"app.model"`) and
 * `<name>_id`, read back also as a nested `<name>` object. The pair must name an existing object.
 */
export interface GenericRelationField extends CommonOptions {
  kind: 'generic';
  required?: boolean;
  /** When the object pointed at is deleted: delete this one too, or clear the pointer; default keep (history). */
  onDelete?: 'CASCADE' | 'SET NULL';
  /** Object types it may point at (`"dcim.interface"`); any declared type when absent. */
  allowedTypes?: readonly string[];
}

export type FieldSpec =
  | TextField
  | IntegerField
  | DecimalField
  | BooleanField
  | ChoiceField
  | DateField
  | JsonField
  | StringListField
  | RelationField
  | ManyField
  | GenericRelationField;

/** Who is asking and how the request looked: what every operation needs besides its input. */
export interface RequestScope {
  principal: Principal;
  /** `scheme://host` as the client addressed us (X-Forwarded-* honoured when trusted). */
  baseUrl: string;
  /** The absolute URL of the request, for `next`/`previous` links. */
  requestUrl: URL;
  requestId: string;
  /** From `X-Changelog-Message` (a body's `changelog_message` wins). */
  changelogMessage?: string;
}

export type Representation = 'full' | 'brief';
export type SerializedObject = Record<string, unknown>;

/** The REST representations, as actions, hooks and extensions may ask for them. */
export interface ObjectSerializer {
  serialize(
    manager: EntityManager,
    definition: ResourceDefinition,
    rows: readonly ResourceRow[],
    representation: Representation,
    baseUrl: string,
  ): Promise<SerializedObject[]>;
  /** Brief representations of objects of one type, by id (one query). */
  briefByIds(manager: EntityManager, objectType: string, ids: readonly number[], baseUrl: string): Promise<Map<number, SerializedObject>>;
}

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

/**
 * What a hook gets: the writing transaction, who is writing, the settings of the plugin that
 * declared the hook (`{}` for the platform's own), and a way to create dependent objects.
 */
export interface ResourceHookContext {
  manager: EntityManager;
  scope: RequestScope;
  settings: Readonly<Record<string, unknown>>;
  /** Creates objects of a served model, named by object type (`'dcim.frontport'`), validated and recorded as through the API. */
  createChildren(objectType: string, items: Array<Record<string, unknown>>): Promise<ResourceRow[]>;
  /** Updates one object of a served model as a PATCH would (validation, hooks, change log), without a permission check. */
  update(objectType: string, id: number, body: Record<string, unknown>): Promise<void>;
  /** In delete hooks of an object removed by a cascade: the object type whose deletion reached it. */
  cascadeFrom?: string;
  /** Whether the caller holds `action` (`'approve'`, `'change'`, …) on the object of that type with that id (its constraints included). */
  permits(objectType: string, action: string, id: number): Promise<boolean>;
}

/**
 * Hooks around writes, run in the writing transaction, after the permission checks and validation.
 * A hook that throws refuses the write and rolls back everything the request did: a
 * `ResourceValidationError` (`nonFieldError`) answers 400, a `ProtectedObjectError` 409, a
 * `ForbiddenError` 403. Declared on a model, or by a plugin for any model (`PluginDeclaration.hooks`).
 */
export interface ResourceHooks {
  /** After the object is inserted and recorded (e.g. instantiating components). */
  afterCreate?: (context: ResourceHookContext, row: ResourceRow) => Promise<void>;
  /**
   * Before an update is written: the row as stored, and the validated values about to be written, by
   * column. May answer server-set columns to write with them (e.g. a splice plan's `submitted_by_id`
   * on submission), so they are part of the one recorded change.
   */
  beforeUpdate?: (
    context: ResourceHookContext,
    existing: ResourceRow,
    changes: Readonly<Record<string, unknown>>,
  ) => Promise<void | Record<string, unknown>>;
  /** After the update is written and recorded. Not run for references cleared by a SET NULL (as Django's collector sends no save signals). */
  afterUpdate?: (context: ResourceHookContext, before: ResourceRow, after: ResourceRow) => Promise<void>;
  /** Before the object is deleted, directly or by a cascade (e.g. refusing while something holds it). */
  beforeDelete?: (context: ResourceHookContext, row: ResourceRow) => Promise<void>;
  /**
   * Before objects of the model are deleted together (those of one request, or those one cascade
   * reaches, such as a cable's 10 000 strands), once for them all, before `beforeDelete` of each:
   * for a check that is one query however many they are.
   */
  beforeDeleteAll?: (context: ResourceHookContext, rows: readonly ResourceRow[]) => Promise<void>;
  /** After the object is deleted and recorded. */
  afterDelete?: (context: ResourceHookContext, row: ResourceRow) => Promise<void>;
}

export type OpenApiSchema = Record<string, unknown>;

/** How an action appears in the platform's OpenAPI document. */
export interface ActionDocumentation {
  summary: string;
  /** Schema of a POST's JSON body. */
  request?: OpenApiSchema;
  /** Query parameters it reads. */
  parameters?: ReadonlyArray<{ name: string; description: string; schema: OpenApiSchema }>;
  /** Schema of the 200 answer. */
  response: OpenApiSchema;
}

/** SQL over the visible rows of a model, written against the row's alias in the query. */
export interface VisibleSelection {
  /** Output name → SQL expression. */
  select(alias: string): Record<string, string>;
  /** A further condition on the rows. */
  where?(alias: string): string;
  /** Tables left-joined for the select list (a referenced row's name read once per row by a join, not a subquery each). */
  joins?: ReadonlyArray<{ table: string; alias: string; on(alias: string): string }>;
  /** A page in the list's ordering; without one the rows come unordered (as an aggregate needs). */
  page?: { limit: number; offset: number };
  /**
   * Keep the statement prepared (parsed and planned once per connection): for a statement run on
   * every request under few filter combinations, such as a map layer's. Otherwise it runs unnamed.
   */
  prepared?: boolean;
}

/** Its functions are plain properties, not methods: an action destructures the ones it uses. */
export interface CollectionActionContext {
  manager: EntityManager;
  body: unknown;
  query: QueryParameters;
  scope: RequestScope;
  serializer: ObjectSerializer;
  /** Settings of the plugin that declared the model (`{}` for the platform's own). */
  settings: Readonly<Record<string, unknown>>;
  /**
   * Rows of a served model the caller may view, filtered as its REST list (`{status: 'active'}`);
   * with `columns`, only those columns (and `id`) are read: for a caller of many rows and few fields.
   */
  visibleRows: (
    objectType: string,
    filters: QueryParameters,
    page?: { limit: number; offset: number },
    columns?: readonly string[],
  ) => Promise<ResourceRow[]>;
  /** How many rows `visibleRows` would give without a page: counted by the database. */
  countVisible: (objectType: string, filters: QueryParameters) => Promise<number>;
  /**
   * The same rows, but each is what `selection` selects in SQL: for answers the database assembles
   * (a GeoJSON feature as JSON text, an aggregate) rather than rows turned into objects here.
   */
  selectVisible: (objectType: string, filters: QueryParameters, selection: VisibleSelection) => Promise<Array<Record<string, unknown>>>;
  /** Whether the caller holds `action` on the object of that type with that id (its constraints included). */
  permits: (objectType: string, action: string, id: number) => Promise<boolean>;
  /**
   * Which of these objects of that type the caller holds `action` on (its constraints included), of
   * those that exist. With `existing`, the caller vouches that they all exist (read in this
   * transaction), so an unconstrained permission answers without a statement.
   */
  permittedIds: (objectType: string, action: string, ids: readonly number[], options?: { existing?: boolean }) => Promise<Set<number>>;
  /** Whether a model is served (false for a model of a plugin left out of PLUGINS). */
  served: (objectType: string) => boolean;
  /**
   * Updates one object as a PATCH would (validation, hooks, change log) in this transaction, without
   * the `change` permission check: the action has decided who may do it. Answers the full representation.
   */
  update: (objectType: string, id: number, body: Record<string, unknown>) => Promise<SerializedObject>;
  /** Creates objects as a POST would (validation, hooks, change log with the request's message), without the `add` check. */
  create: (objectType: string, items: Array<Record<string, unknown>>) => Promise<ResourceRow[]>;
  /** Deletes objects as a DELETE would (cascades, hooks, change log), without the `delete` check. */
  remove: (objectType: string, ids: readonly number[]) => Promise<void>;
}

/**
 * What an action or plugin route answers when the slow rest of its work needs no database: `finish`
 * runs after the transaction has ended, so it holds no connection meanwhile (a config render, which
 * may take seconds, would otherwise hold the embedded database's only one).
 */
export class AfterTransaction<T = unknown> {
  constructor(readonly finish: () => Promise<T>) {}
}

export interface ResourceActionContext extends CollectionActionContext {
  row: ResourceRow;
}

interface ActionCommon {
  /** URL segment: lowercase words joined by hyphens. */
  name: string;
  method: 'GET' | 'POST';
  /** The object permission it needs on the model (`view` for reads, or a custom one such as `approve`). */
  permission: string;
  /** A POST that only reads: allowed to read-only tokens. */
  safePost?: boolean;
  /** A POST that creates answers 201 (default 200). */
  status?: 200 | 201;
  openapi: ActionDocumentation;
}

/** A custom operation on one object, e.g. `GET /api/dcim/front-ports/{id}/trace/`; the object must be within the permission. */
export interface ResourceAction extends ActionCommon {
  handle(context: ResourceActionContext): Promise<unknown>;
}

/** A custom operation on the model's list URL, e.g. `POST /api/plugins/fms/fiber-circuits/protecting/`. */
export interface ResourceCollectionAction extends ActionCommon {
  handle(context: CollectionActionContext): Promise<unknown>;
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
/** The OpenAPI schema of a read-only property an extension adds (`{type: 'integer'}`). */
export type PropertySchema = Readonly<Record<string, unknown>> & {
  type?: 'integer' | 'number' | 'string' | 'boolean' | 'object' | 'array';
};

export interface ResourceExtension {
  keys: readonly string[];
  /** OpenAPI schemas of the keys as the full representation shows them; a key without one is documented as any value. */
  readSchema?: Readonly<Record<string, PropertySchema>>;
  /**
   * The read-only keys computed from the rows alone (no URLs, no serializer), for a page at a time:
   * served as GraphQL fields too, typed from `readSchema`.
   */
  computed?: (manager: EntityManager, rows: readonly ResourceRow[]) => Promise<Map<number, Record<string, unknown>>>;
  /** Extra properties of the full representation, by row id (one query per page, not per row). */
  represent(
    manager: EntityManager,
    rows: readonly ResourceRow[],
    baseUrl: string,
    serializer: ObjectSerializer,
  ): Promise<Map<number, Record<string, unknown>>>;
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
  /** The field and message a duplicate is reported with (Django's `violation_error_message`); default `non_field_errors`, naming the fields. */
  violation?: { field: string; message: string };
}

/**
 * How a model appears in GraphQL beyond the generated defaults (a published schema it must match):
 * left out, its type's name, the filter inputs of its list, lists of the rows that point at it, former
 * query names, and the type of the single-object `id` argument.
 */
/** One object of a union list: its model (`dcim.interface`) and id. */
export interface GraphqlObjectReference {
  objectType: string;
  id: number;
}

/** A nested list whose objects are of several models (see `GraphqlShape.unionLists`). */
export interface GraphqlUnionList {
  /** The union type's name; lists naming the same union share it (and must name the same models). */
  union: string;
  /** The models the union admits. */
  objectTypes: readonly string[];
  /**
   * For every row of a query level at once (one statement, not one per row): each row's objects, in
   * order, by list name. Lists naming the same function (a cable's two ends) share one read per level.
   */
  read: (
    manager: EntityManager,
    rowIds: readonly number[],
  ) => Promise<ReadonlyMap<number, Readonly<Record<string, readonly GraphqlObjectReference[]>>>>;
}

export interface GraphqlShape {
  /** false: no type and no queries (relations to it are left out of other types too). */
  exposed?: boolean;
  /** The type's name instead of `<GraphqlName>Type`. */
  typeName?: string;
  /** The single-object query's `id` argument as `Int!`, where a specification fixes it so; otherwise NetBox's `ID!`. */
  intId?: boolean;
  /** The only filter inputs of `<name>_list` (each a value, a list or a lookup object) instead of every REST filter and lookup; empty: no `filters` argument. */
  filters?: readonly string[];
  /** Nested lists of the rows of another model whose relation `field` points at this object (`channels` of a node). */
  lists?: Readonly<Record<string, { objectType: string; field: string }>>;
  /**
   * Nested lists of objects of several models, typed as one GraphQL union (a cable's `a_terminations`
   * of `CableTerminationTerminationType`); each object is shown only to a caller who may view it.
   */
  unionLists?: Readonly<Record<string, GraphqlUnionList>>;
  /**
   * Former query names still served, marked deprecated in the schema (`fms_fiber_strand` and its
   * `_list` beside `fiber_strand`), so queries written against them keep working.
   */
  deprecatedNames?: readonly string[];
}

/**
 * Where a map feature's geometry comes from: a relation of the model to a structure (its point), a
 * location (the structure at that location), or a platform cable (the paths of the pathways it is
 * routed through, in order).
 */
export interface MapLayerGeometrySource {
  field: string;
  via: 'structure' | 'location' | 'cable';
}

/**
 * A map layer of a model's objects, declared with the model for a map plugin to serve (pathways
 * serves them at `geo/external/<name>/`) without either plugin importing the other: the declaration
 * names where each object's geometry comes from; the map plugin resolves the geometry and the
 * properties.
 */
export interface MapLayer {
  /** URL segment: lowercase words joined by hyphens, unique among layers. */
  name: string;
  /** One source, or several tried in order (the first that gives a geometry wins). */
  geometry: MapLayerGeometrySource | readonly MapLayerGeometrySource[];
  /** Properties besides `id`; absent: every scalar field and the display value of every relation. */
  featureFields?: readonly string[];
  /** A property a map colours features by; must be one of `featureFields` when they are given. */
  colorField?: string;
  /** Below this zoom (when the caller sends one), the layer answers no features: too dense to draw. */
  minZoom?: number;
}

export interface ResourceDeclaration extends ResourceHooks {
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
  /** GraphQL shape beyond the generated defaults. */
  graphql?: GraphqlShape;
  standard?: Partial<StandardAttributes>;
  /**
   * The table belongs to another module (e.g. `users`): no schema is generated for it, and relations
   * to it target this TypeORM entity name.
   */
  externalEntity?: () => new () => object;
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
  /**
   * A CASCADE relation to the object whose `afterCreate` generates these rows without change records
   * of their own (a fiber cable's tubes and strands, one statement for thousands): deleted with that
   * object, directly or through another row generated with it, they go as they came, without change
   * records or events of their own. Deleted on their own, they are recorded as any object.
   */
  generatedWith?: string;
  /** Custom operations on one object, served at `{id}/<name>/`. */
  actions?: readonly ResourceAction[];
  /** Custom operations on the list URL, served at `<name>/` (before `{id}/`, so a name never reads as an id). */
  collectionActions?: readonly ResourceCollectionAction[];
  /** Body keys handled beside the fields (e.g. cable terminations). */
  extensions?: readonly ResourceExtension[];
  /**
   * Rules that need the database (e.g. both ports of a mapping on one device); run after `validate`.
   * `body` is the request's object, for a rule that reads one of `requestOnly`'s keys.
   */
  validateAsync?: (
    manager: EntityManager,
    values: Record<string, unknown>,
    body: Readonly<Record<string, unknown>>,
  ) => Promise<Record<string, string[]>>;
  /**
   * Body keys a rule reads but nothing stores or shows (a confirmation such as a tube assignment's
   * `confirm_reassign`), documented as write-only properties of the writable schema.
   */
  requestOnly?: Readonly<Record<string, OpenApiSchema>>;
  /**
   * Other names a write may give a writable field by, alias → field (an upstream serializer's
   * `template_id` for `template`): read as the field; giving both is a 400 on the alias.
   */
  inputAliases?: Readonly<Record<string, string>>;
  /** Query parameters beyond the field lookups. */
  extraFilters?: Record<string, ExtraFilter>;
  /**
   * Database CHECK constraints for rules about rows the application writes itself (Django's
   * CheckConstraint), e.g. a node holding exactly one of several objects: `{name, expression}`.
   */
  checks?: ReadonlyArray<{ name: string; expression: string }>;
  /** Indexes beyond those of relations and unique fields: `gist` for geometric columns (a `box` searched with `&&`). */
  indexes?: ReadonlyArray<{ name: string; columns: readonly string[]; method: 'btree' | 'gist' }>;
  /**
   * Columns of related objects that `q` matches too, besides the fields declared `search` (a
   * session found by its BGP peer's name): `{relation: 'bgp_peer', column: 'name'}`.
   */
  searchRelated?: ReadonlyArray<{ relation: string; column: string }>;
  /** Cross-field rules run after per-field validation; returns NetBox's `{field: [messages]}`. */
  validate?: (values: Record<string, unknown>, context: ResourceValidationContext) => Record<string, string[]>;
  /** The model's objects as a map layer, for a map plugin to serve (pathways: `geo/external/<name>/`). */
  mapLayer?: MapLayer;
}

/** What cross-field rules may consult besides the values: the server's configured policies. */
export interface ResourceValidationContext {
  /** Which URLs the server may request and which CA files it may read for them. */
  egress: EgressPolicy;
}

export interface ResourceDefinition extends ResourceDeclaration {
  readonly objectType: string;
  readonly standardAttributes: StandardAttributes;
  readonly graphqlQueryName: string;
  readonly listPath: string;
}
