import type { DataSource, EntityManager } from 'typeorm';
import type { MigrationClass } from '../../common/database/data-source-options';
import type { EgressPolicy } from '../../common/http/egress-policy';
import type { ObjectEvent } from '../framework/resource/object-events';
import type { ResourceHooks } from '../framework/resource/resource-declaration';
import type { ResourceDefinition } from '../framework/resource/resource-definition';
import type { JobChange } from './job-change-log';
import type { GraphqlQueryExtension } from '../graphql/graphql-schema.factory';
import { pathParameterNames, PluginRoute, routeSegments, RouteSegment, segmentsOverlap } from './plugin-route';
import { PluginSettingSpec, PluginSettingValues, SETTING_NAME } from './plugin-settings';

export type { MigrationClass };

/** What a plugin's job handler gets besides the payload. */
export interface PluginJobContext {
  dataSource: DataSource;
  settings: PluginSettingValues;
  job: { id: string; attempt: number };
  /** Every request the job makes to a URL a user chose goes through it. */
  egress: EgressPolicy;
  /** The change log of what the job writes with its own statements: the job's queue as the user, one request id per run. */
  changeLog: {
    snapshots(manager: EntityManager, objectType: string, ids: readonly number[]): Promise<Map<number, Record<string, unknown>>>;
    record(manager: EntityManager, changes: readonly JobChange[]): Promise<number>;
    /** Records the deletion of these objects; call it in the transaction, before deleting them. */
    recordDeletions(manager: EntityManager, objectType: string, ids: readonly number[]): Promise<number>;
  };
}

/** A queue of the PostgreSQL job queue served by the plugin (named `<plugin>.<name>`). */
export interface PluginJob {
  queue: string;
  handle(payload: Record<string, unknown>, context: PluginJobContext): Promise<void>;
  /**
   * A recurring job: seconds between runs read from the plugin's settings (0: not scheduled). One
   * pending run is kept in the queue, so with several replicas each run happens once.
   */
  every?: (settings: PluginSettingValues) => number;
}

/** Receives changes to objects (any model's), in the changing transaction; a throw refuses the change. */
export interface PluginSubscriber {
  name: string;
  /** Object types (`'dcim.cable'`) it wants; every type when absent. */
  objectTypes?: readonly string[];
  handle(manager: EntityManager, event: ObjectEvent, context: { settings: PluginSettingValues }): Promise<void>;
}

/** Write hooks a plugin puts on models, its own or the platform's (e.g. refusing to delete a port a circuit holds). */
export interface PluginHooks extends ResourceHooks {
  objectTypes: readonly string[];
}

/**
 * Everything a plugin brings, in one object (NetBox's PluginConfig): the platform mounts it when
 * PLUGINS names it and derives routes, GraphQL, OpenAPI, entities and migrations from it.
 */
export interface PluginDeclaration {
  /** Lowercase letters and digits: the URL segment (`/api/plugins/<name>/`), the app label of its models, the prefix of its settings. */
  name: string;
  version: string;
  description: string;
  /**
   * App labels the upstream NetBox plugin stores these models under (`netbox_fms`): object-type
   * references written with them (`netbox_fms.spliceplan`) are accepted as this plugin's models.
   */
  appLabelAliases?: readonly string[];
  /** Plugins that must be mounted with this one (e.g. peering needs routing). */
  dependencies?: readonly string[];
  /** Its models; each has `appLabel` = the plugin's name and is served under its base path. */
  resources: readonly ResourceDefinition[];
  /** Its own migrations, oldest first (the platform runs those of every available plugin). */
  migrations?: readonly MigrationClass[];
  /** Handlers of its job queues. */
  jobs?: readonly PluginJob[];
  /** Settings with their defaults, read from `PLUGIN_<NAME>_<SETTING>` and validated at boot. */
  settings?: Readonly<Record<string, PluginSettingSpec>>;
  /** Subscribers to object events (created, updated, deleted), run after the platform's event rules. */
  subscribers?: readonly PluginSubscriber[];
  /** Hooks on writes to models named by object type, run after the model's own hooks. */
  hooks?: readonly PluginHooks[];
  /** Extra GraphQL queries: fields of the root Query type, named `<plugin>_…`. */
  graphqlQueries?: GraphqlQueryExtension;
  /** Endpoints under its base path that belong to no one model (`GET closures/{device_id}/fiber-claims/`). */
  routes?: readonly PluginRoute[];
}

/**
 * The part of a declaration that configuration checks read (PLUGINS, dependencies, settings). Each
 * plugin keeps it in its own `manifest.ts`, which loads none of its models, so a cluster primary can
 * check the configuration without loading the application.
 */
export type PluginManifest = Pick<PluginDeclaration, 'name' | 'version' | 'description' | 'dependencies' | 'settings'>;

export interface PluginDefinition extends PluginDeclaration {
  /** `/api/plugins/<name>/` */
  readonly basePath: string;
}

export const PLUGIN_NAME = /^[a-z][a-z0-9]*$/;

/** What {@link definePlugin} returned: the registry tells a plugin's declaration from its other exports by it. */
const DEFINED_PLUGINS = new WeakSet<object>();

export function isPluginDefinition(value: unknown): value is PluginDefinition {
  return typeof value === 'object' && value !== null && DEFINED_PLUGINS.has(value);
}

/** Declares a plugin; mistakes in the declaration stop the process at load, before anything is served. */
export function definePlugin(declaration: PluginDeclaration): PluginDefinition {
  const { name } = declaration;
  const fail = (problem: string) => {
    throw new Error(`plugin ${name}: ${problem}`);
  };
  if (!PLUGIN_NAME.test(name)) fail('its name must be lowercase letters and digits, starting with a letter');
  if (!/^\d+\.\d+\.\d+/.test(declaration.version)) fail(`version ${JSON.stringify(declaration.version)} is not a semantic version`);
  const basePath = `/api/plugins/${name}/`;
  for (const resource of declaration.resources) {
    if (resource.appLabel !== name) fail(`model ${resource.objectType} must have app label ${name}`);
    if (!resource.listPath.startsWith(basePath)) fail(`model ${resource.objectType} must be served under ${basePath} (apiPrefix)`);
  }
  for (const job of declaration.jobs ?? []) {
    if (!job.queue.startsWith(`${name}.`)) fail(`job queue ${job.queue} must be named ${name}.<queue>`);
  }
  for (const settingName of Object.keys(declaration.settings ?? {})) {
    if (!SETTING_NAME.test(settingName)) fail(`setting ${settingName} must be lowercase snake_case`);
  }
  if (declaration.dependencies?.includes(name)) fail('it cannot depend on itself');
  const problem = routeProblem(declaration);
  if (problem) fail(problem);
  for (const alias of declaration.appLabelAliases ?? []) {
    if (!/^[a-z][a-z0-9_]*$/.test(alias) || alias === name)
      fail(`app label alias ${JSON.stringify(alias)} must be another lowercase app label`);
  }
  const definition = Object.freeze({ ...declaration, basePath });
  DEFINED_PLUGINS.add(definition);
  return definition;
}

const OBJECT_TYPE = /^[a-z][a-z0-9_]*\.[a-z][a-z0-9]*$/;

/**
 * What is wrong with the plugin's routes, if anything: a malformed path, parameters the
 * documentation does not describe, or a URL that another route or one of its models' routes could
 * also match (which one answered would depend on registration order).
 */
function routeProblem(declaration: PluginDeclaration): string | undefined {
  // A model's routes take their URLs for every method; a route only for its own.
  const taken: Array<{ segments: RouteSegment[]; what: string; method?: string }> = [];
  for (const resource of declaration.resources) {
    const list = { literal: resource.path };
    const id = { param: 'id' };
    const what = `the routes of model ${resource.objectType}`;
    taken.push({ segments: [list], what }, { segments: [list, id], what });
    for (const action of resource.collectionActions ?? []) taken.push({ segments: [list, { literal: action.name }], what });
    for (const action of resource.actions ?? []) taken.push({ segments: [list, id, { literal: action.name }], what });
  }
  for (const route of declaration.routes ?? []) {
    const name = `route ${route.method} ${route.path}`;
    const segments = routeSegments(route.path);
    if ('problem' in segments) return `${name}: ${segments.problem}`;
    const params = pathParameterNames(segments);
    const described = Object.keys(route.openapi.pathParameters ?? {});
    if (new Set(params).size !== params.length) return `${name}: a path parameter appears twice`;
    if (params.length !== described.length || params.some((param) => !described.includes(param))) {
      return `${name}: openapi.pathParameters must describe exactly its path parameters (${params.join(', ') || 'none'})`;
    }
    if (route.safePost && route.method !== 'POST') return `${name}: safePost applies to POST routes only`;
    if (route.queryToken && route.method !== 'GET') return `${name}: queryToken applies to GET routes only`;
    if (route.permission !== 'authenticated' && (!OBJECT_TYPE.test(route.permission.objectType) || route.permission.action === '')) {
      return `${name}: permission must be 'authenticated' or {objectType: 'app.model', action}`;
    }
    const clash = taken.find((other) => (other.method ?? route.method) === route.method && segmentsOverlap(other.segments, segments));
    if (clash) return `${name} could answer the same URLs as ${clash.what}`;
    taken.push({ segments, what: name, method: route.method });
  }
  return undefined;
}
