import { ERROR_RESPONSES, filterParameters, json } from '../framework/resource/resource-openapi';
import type { PluginDefinition } from './plugin-declaration';
import { PluginRoute, routeSegments } from './plugin-route';

type Schema = Record<string, unknown>;

/**
 * The OpenAPI paths of a plugin's routes, tagged with the plugin's name. Operation ids are
 * `<plugin>_<literal segments>_<verb>`: `list` for a GET without path parameters, `retrieve` for a
 * GET with them, `create` for a POST (`fms_closures_fiber_claims_retrieve`), as for model actions.
 */
export function pluginRoutePaths(plugin: PluginDefinition): Record<string, Schema> {
  const paths: Record<string, Schema> = {};
  for (const route of plugin.routes ?? []) {
    const segments = routeSegments(route.path);
    if ('problem' in segments) throw new Error(`plugin ${plugin.name}: route ${route.path}: ${segments.problem}`);
    const literals = segments.flatMap((segment) => ('literal' in segment ? [segment.literal.replace(/[-.]/g, '_')] : []));
    const hasParameters = segments.some((segment) => 'param' in segment);
    const verb = route.method === 'POST' ? 'create' : hasParameters ? 'retrieve' : 'list';
    const path = `${plugin.basePath}${route.path}/`;
    paths[path] = {
      ...paths[path],
      [route.method.toLowerCase()]: routeOperation(route, [plugin.name, ...literals, verb].join('_'), plugin.name),
    };
    if (route.alsoAtPluginUrl) {
      const alias = `/plugins/${plugin.name}/${route.path}`;
      paths[alias] = {
        ...paths[alias],
        [route.method.toLowerCase()]: routeOperation(route, [plugin.name, 'plugin_url', ...literals, verb].join('_'), plugin.name),
      };
    }
  }
  return paths;
}

function routeOperation(route: PluginRoute, operationId: string, tag: string): Schema {
  const documentation = route.openapi;
  const parameters = [
    ...Object.entries(documentation.pathParameters ?? {}).map(([name, parameter]) => ({
      name,
      in: 'path',
      required: true,
      description: parameter.description,
      schema: parameter.schema.type === 'integer' ? { minimum: 0, maximum: 2_147_483_647, ...parameter.schema } : parameter.schema,
    })),
    ...(documentation.filtersOf ? filterParameters(documentation.filtersOf) : []),
    ...(documentation.parameters ?? []).map((parameter) => ({
      name: parameter.name,
      in: 'query',
      description: parameter.description,
      schema: parameter.schema,
    })),
  ];
  const permission =
    route.permission === 'authenticated'
      ? 'Any authenticated caller may call it'
      : `Needs the \`${route.permission.action}\` permission on \`${route.permission.objectType}\``;
  return {
    operationId,
    summary: documentation.summary,
    description: `${permission}${route.safePost ? '; read-only tokens may call it' : ''}.`,
    tags: [tag],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(route.method === 'POST' && documentation.request
      ? {
          requestBody: documentation.requestMediaType
            ? { required: true, content: { [documentation.requestMediaType]: { schema: documentation.request } } }
            : { required: false, content: json(documentation.request) },
        }
      : {}),
    responses: {
      '200': {
        description: 'The result',
        content: { [documentation.responseMediaType ?? 'application/json']: { schema: documentation.response } },
      },
      ...ERROR_RESPONSES,
    },
  };
}
