import { InvalidConfigurationError } from '../../common/config/env-reader';
import { text } from '../framework/resource/fields';
import { defineResource } from '../framework/resource/resource-definition';
import { definePlugin, PluginDeclaration } from './plugin-declaration';
import { isValidPathParameter, PluginRoute } from './plugin-route';
import { setting } from './plugin-settings';
import { PluginSet } from './plugin-set';

const widget = defineResource({
  appLabel: 'alpha',
  model: 'widget',
  path: 'widgets',
  apiPrefix: '/api/plugins/alpha/',
  verboseName: 'widget',
  table: 'alpha_widget',
  fields: { name: text({ maxLength: 50 }) },
  display: (row) => String(row.name),
  brief: ['name'],
  ordering: ['name'],
});

const plugin = (declaration: Partial<PluginDeclaration> & { name: string }) =>
  definePlugin({ version: '1.0.0', description: 'test plugin', resources: [], ...declaration });

const alpha = plugin({
  name: 'alpha',
  version: '1.2.0',
  resources: [widget],
  settings: {
    page_size: setting.integer({ default: 50, min: 1, max: 1000, description: 'rows per page' }),
    mode: setting.choice(['fast', 'safe'], { default: 'safe', description: 'how' }),
    enabled: setting.boolean({ default: true, description: 'on or off' }),
    hosts: setting.list({ default: ['a'], description: 'hosts' }),
  },
});
const beta = plugin({ name: 'beta', dependencies: ['alpha'] });
const AVAILABLE = [alpha, beta];

function problems(select: () => unknown): string[] {
  try {
    select();
  } catch (error) {
    if (error instanceof InvalidConfigurationError) return error.lines();
    throw error;
  }
  throw new Error('expected an InvalidConfigurationError');
}

describe('PluginSet.select', () => {
  it('mounts every available plugin when PLUGINS is unset, with the settings defaults', () => {
    const set = PluginSet.select(AVAILABLE, { plugins: undefined, pluginVariables: {} });
    expect(set.mounted.map(({ plugin: p }) => p.name)).toEqual(['alpha', 'beta']);
    expect(set.versions()).toEqual({ alpha: '1.2.0', beta: '1.0.0' });
    expect(set.mounted[0].settings).toEqual({ page_size: 50, mode: 'safe', enabled: true, hosts: ['a'] });
    expect(set.mountedResources()).toEqual([widget]);
    expect(set.pluginOf(widget)?.plugin).toBe(alpha);
  });

  it('mounts none for an empty PLUGINS, but keeps every available model as stored', () => {
    const set = PluginSet.select(AVAILABLE, { plugins: [], pluginVariables: {} });
    expect(set.mounted).toEqual([]);
    expect(set.mountedResources()).toEqual([]);
    expect(set.availableResources()).toEqual([widget]);
    expect(set.pluginOf(widget)).toBeUndefined();
  });

  it('reads settings from PLUGIN_<NAME>_<SETTING>', () => {
    const set = PluginSet.select(AVAILABLE, {
      plugins: ['alpha'],
      pluginVariables: { PLUGIN_ALPHA_PAGE_SIZE: '200', PLUGIN_ALPHA_MODE: 'fast', PLUGIN_ALPHA_ENABLED: 'no', PLUGIN_ALPHA_HOSTS: 'x, y' },
    });
    expect(set.mounted[0].settings).toEqual({ page_size: 200, mode: 'fast', enabled: false, hosts: ['x', 'y'] });
  });

  it('refuses an unknown plugin, a missing dependency, a bad or unknown setting: one line each', () => {
    expect(problems(() => PluginSet.select(AVAILABLE, { plugins: ['gamma'], pluginVariables: {} }))).toEqual([
      'Invalid configuration: PLUGINS names "gamma", which is not an available plugin (available: alpha, beta)',
    ]);
    expect(problems(() => PluginSet.select(AVAILABLE, { plugins: ['beta'], pluginVariables: {} }))).toEqual([
      'Invalid configuration: PLUGINS names beta, which needs alpha: add alpha to PLUGINS',
    ]);
    expect(
      problems(() =>
        PluginSet.select(AVAILABLE, {
          plugins: undefined,
          pluginVariables: { PLUGIN_ALPHA_PAGE_SIZE: '0', PLUGIN_ALPHA_PAGESIZE: '3', PLUGIN_BETA_X: '1' },
        }),
      ),
    ).toEqual([
      'Invalid configuration: PLUGIN_ALPHA_PAGESIZE is not a setting of plugin alpha (its settings: PLUGIN_ALPHA_PAGE_SIZE, PLUGIN_ALPHA_MODE, PLUGIN_ALPHA_ENABLED, PLUGIN_ALPHA_HOSTS)',
      'Invalid configuration: PLUGIN_BETA_X is not a setting of plugin beta (its settings: none)',
      'Invalid configuration: PLUGIN_ALPHA_PAGE_SIZE must be an integer from 1 to 1000 (got "0")',
    ]);
  });

  it('ignores the settings of plugins that are not available', () => {
    expect(PluginSet.select(AVAILABLE, { plugins: undefined, pluginVariables: { PLUGIN_OTHER_THING: '1' } }).mounted).toHaveLength(2);
  });

  it('stops at a list that names a plugin twice or a dependency that is not available', () => {
    expect(() => PluginSet.select([alpha, alpha], { plugins: undefined, pluginVariables: {} })).toThrow('plugin alpha is listed twice');
    expect(() => PluginSet.select([beta], { plugins: undefined, pluginVariables: {} })).toThrow(
      'plugin beta depends on alpha, which is not an available plugin',
    );
  });
});

describe('definePlugin', () => {
  it('derives the base path', () => {
    expect(alpha.basePath).toBe('/api/plugins/alpha/');
  });

  it('refuses models outside the plugin, bad names and job queues of another namespace', () => {
    expect(() => plugin({ name: 'Alpha' })).toThrow('its name must be lowercase letters and digits');
    expect(() => plugin({ name: 'other', resources: [widget] })).toThrow('model alpha.widget must have app label other');
    expect(() => plugin({ name: 'alpha', jobs: [{ queue: 'sync', handle: async () => undefined }] })).toThrow(
      'job queue sync must be named alpha.<queue>',
    );
    expect(() => plugin({ name: 'alpha', version: 'one' })).toThrow('is not a semantic version');
  });
});

describe('definePlugin routes', () => {
  const route = (overrides: Partial<PluginRoute>): PluginRoute => ({
    method: 'GET',
    path: 'things/{thing_id}/parts',
    permission: 'authenticated',
    openapi: {
      summary: 'parts',
      response: { type: 'array' },
      pathParameters: { thing_id: { description: 'a thing', schema: { type: 'integer' } } },
    },
    handle: async () => [],
    ...overrides,
  });
  const withRoutes = (...routes: PluginRoute[]) => plugin({ name: 'alpha', resources: [widget], routes });

  it('accepts routes whose URLs no other route or model of the plugin answers', () => {
    expect(
      withRoutes(
        route({}),
        route({ method: 'POST' }),
        route({
          path: 'widgets/{id}/parts',
          openapi: { summary: 's', response: {}, pathParameters: { id: { description: 'd', schema: { type: 'integer' } } } },
        }),
      ).routes,
    ).toHaveLength(3);
  });

  it('accepts a file name as the last segment and a query token on a GET (a calendar feed)', () => {
    const feed = { path: 'ical/maintenances.ics', queryToken: true, openapi: { summary: 'feed', response: { type: 'string' } } };
    expect(withRoutes(route(feed)).routes).toHaveLength(1);
    expect(() => withRoutes(route({ path: 'feed.ics/things' }))).toThrow('segment "feed.ics" must be lowercase words joined by hyphens');
    expect(() => withRoutes(route({ method: 'POST', queryToken: true }))).toThrow('queryToken applies to GET routes only');
  });

  it('refuses malformed paths and path parameters the documentation does not describe', () => {
    expect(() => withRoutes(route({ path: '/things' }))).toThrow('route GET /things: its path must be relative');
    expect(() => withRoutes(route({ path: 'Things' }))).toThrow('segment "Things" must be lowercase words joined by hyphens');
    expect(() => withRoutes(route({ path: '{thing_id}/parts' }))).toThrow('its path must start with a literal segment');
    expect(() => withRoutes(route({ path: 'things/{id}/parts' }))).toThrow(
      'openapi.pathParameters must describe exactly its path parameters (id)',
    );
    expect(() => withRoutes(route({ path: 'things' }))).toThrow('openapi.pathParameters must describe exactly its path parameters (none)');
    expect(() => withRoutes(route({ safePost: true }))).toThrow('safePost applies to POST routes only');
    expect(() => withRoutes(route({ permission: { objectType: 'device', action: 'view' } }))).toThrow(
      "permission must be 'authenticated' or {objectType: 'app.model', action}",
    );
  });

  it('refuses a route that could answer the URLs of another route of its method, or of a model', () => {
    expect(() =>
      withRoutes(
        route({}),
        route({
          path: 'things/{other}/parts',
          openapi: { summary: 's', response: {}, pathParameters: { other: { description: 'd', schema: { type: 'string' } } } },
        }),
      ),
    ).toThrow('route GET things/{other}/parts could answer the same URLs as route GET things/{thing_id}/parts');
    expect(() => withRoutes(route({ path: 'widgets/{thing_id}' }))).toThrow(
      'route GET widgets/{thing_id} could answer the same URLs as the routes of model alpha.widget',
    );
  });
});

describe('isValidPathParameter', () => {
  it('takes integers as digits within the declared range, strings by their pattern', () => {
    expect(['7', '0', '2147483647'].map((value) => isValidPathParameter(value, { type: 'integer' }))).toEqual([true, true, true]);
    expect(['07', '-1', '1.5', '2147483648', ''].map((value) => isValidPathParameter(value, { type: 'integer' }))).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
    expect(isValidPathParameter('0', { type: 'integer', minimum: 1 })).toBe(false);
    expect(isValidPathParameter('11', { type: 'integer', maximum: 10 })).toBe(false);
    expect(isValidPathParameter('ab-1', { type: 'string', pattern: '^[a-z]+-\\d$' })).toBe(true);
    expect(isValidPathParameter('ab', { type: 'string', pattern: '^[a-z]+-\\d$' })).toBe(false);
  });
});
