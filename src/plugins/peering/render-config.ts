import type { EntityManager } from 'typeorm';
import { ForbiddenError } from '../../common/errors/common-errors';
import { ConfigTemplateError, renderConfigTemplate } from '../../platform/extras/config-templates/config-template-renderer';
import { ResourceValidationError } from '../../platform/framework/resource/resource-errors';
import { RouteResponse, type PluginRoute, type PluginRouteContext } from '../../platform/plugins/plugin-route';
import { peeringContext } from './peering-context';
import { PEERING_TEMPLATE_FILTERS_MODULE } from './peering-template-filters';

interface RenderRequest {
  template: number;
  device: number | null;
  sessions: number[] | null;
}

function isId(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
}

/** The body's shape, as the spec's serializer checks it: 400 `{field: [message]}`. */
function parseBody(body: unknown): RenderRequest {
  const input = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  const problems: Record<string, string[]> = {};
  if (input.template === undefined || input.template === null) problems.template = ['This field is required.'];
  else if (!isId(input.template)) problems.template = ['Expected a config template id (an integer).'];
  const device = input.device ?? null;
  if (device !== null && !isId(device)) problems.device = ['Expected a device id (an integer) or null.'];
  const sessions = input.sessions ?? null;
  if (sessions !== null && (!Array.isArray(sessions) || !sessions.every(isId)))
    problems.sessions = ['Expected a list of peering session ids (integers).'];
  else if (Array.isArray(sessions) && sessions.length === 0)
    problems.sessions = ['Give at least one peering session, or leave sessions out.'];
  if (Object.keys(problems).length === 0 && device === null && sessions === null)
    problems.non_field_errors = ['Give a device, sessions, or both.'];
  if (Object.keys(problems).length > 0) throw new ResourceValidationError(problems);
  return {
    template: input.template as number,
    device: device as number | null,
    sessions: sessions === null ? null : [...new Set(sessions as number[])],
  };
}

async function existingIds(manager: EntityManager, table: string, ids: readonly number[]): Promise<Set<number>> {
  const found = (await manager.query(`SELECT id FROM ${table} WHERE id = ANY($1)`, [ids])) as Array<{ id: number }>;
  return new Set(found.map(({ id }) => id));
}

/** 400 naming each unknown id; with `requireView`, 403 for what the caller may not view. */
async function checkReferences(context: PluginRouteContext, request: RenderRequest, requireView: boolean): Promise<void> {
  const { manager } = context;
  const problems: Record<string, string[]> = {};
  if (!(await existingIds(manager, 'extras_configtemplate', [request.template])).has(request.template)) {
    problems.template = [`Invalid pk "${request.template}" - object does not exist.`];
  }
  if (request.device !== null && !(await existingIds(manager, 'dcim_device', [request.device])).has(request.device)) {
    problems.device = [`Invalid pk "${request.device}" - object does not exist.`];
  }
  if (request.sessions !== null) {
    const known = await existingIds(manager, 'peering_peeringsession', request.sessions);
    const unknown = request.sessions.filter((id) => !known.has(id));
    if (unknown.length > 0) problems.sessions = unknown.map((id) => `Invalid pk "${id}" - object does not exist.`);
  }
  if (Object.keys(problems).length > 0) throw new ResourceValidationError(problems);
  if (!requireView) return;
  const visible = async (objectType: string, ids: readonly number[]) =>
    new Set((await context.visibleRows(objectType, { id: ids.map(String) }, { limit: ids.length, offset: 0 })).map((row) => row.id));
  if (!(await visible('extras.configtemplate', [request.template])).has(request.template)) {
    throw new ForbiddenError('You do not have permission to view this config template.');
  }
  if (request.device !== null && !(await visible('dcim.device', [request.device])).has(request.device)) {
    throw new ForbiddenError('You do not have permission to view this device.');
  }
  if (request.sessions !== null) {
    const seen = await visible('peering.peeringsession', request.sessions);
    if (request.sessions.some((id) => !seen.has(id)))
      throw new ForbiddenError('You do not have permission to view every one of these peering sessions.');
  }
}

/** Whether the Accept header prefers text/plain over JSON (JSON when absent, equal or `*\/*`). */
function wantsText(accept: string | string[] | undefined): boolean {
  const header = Array.isArray(accept) ? accept.join(',') : (accept ?? '');
  let text = -1;
  let json = -1;
  for (const part of header.split(',')) {
    const [type, ...params] = part.trim().toLowerCase().split(';');
    const qParam = params.map((param) => param.trim()).find((param) => param.startsWith('q='));
    const quality = qParam ? Number(qParam.slice(2)) : 1;
    if (type === 'text/plain') text = Math.max(text, quality);
    if (type === 'application/json' || type === '*/*' || type === 'application/*') json = Math.max(json, quality);
  }
  return text > 0 && text > json;
}

/** Jinja environment parameters of the template (NetBox's `environment_params`) the renderer knows. */
function environmentOptions(params: unknown): { trimBlocks?: boolean; lstripBlocks?: boolean; keepTrailingNewline?: boolean } {
  const given = params !== null && typeof params === 'object' ? (params as Record<string, unknown>) : {};
  return {
    trimBlocks: given.trim_blocks === true,
    lstripBlocks: given.lstrip_blocks === true,
    keepTrailingNewline: given.keep_trailing_newline === true,
  };
}

const RENDER_REQUEST_SCHEMA = {
  type: 'object',
  required: ['template'],
  properties: {
    template: { type: 'integer', description: 'The config template (id)' },
    device: {
      type: 'integer',
      nullable: true,
      description: "Render the sessions of this device's BGP routers, or fill in the device for the given sessions",
    },
    sessions: { type: 'array', items: { type: 'integer' }, description: 'Render exactly these peering sessions' },
  },
};

const RENDER_RESPONSE_SCHEMA = {
  type: 'object',
  required: ['configtemplate', 'content', 'session_count'],
  properties: {
    configtemplate: { type: 'object', description: 'The template, brief (id, url, display, name, description)' },
    content: { type: 'string' },
    device: {
      type: 'object',
      properties: { id: { type: 'integer' }, name: { type: 'string', nullable: true } },
      description: 'Present when a device was given',
    },
    session_count: { type: 'integer' },
    context: { type: 'object', description: 'The template context, with include_context=true (contains BGP passwords)' },
  },
};

/**
 * `POST render-config/`: a platform config template rendered against the peering context of a
 * device, of given sessions, or of both. Any authenticated caller may render (as the spec says),
 * and the output holds BGP passwords; the plugin setting `render_config_requires_view` also
 * requires view permission on the template, the device and the sessions.
 */
export const RENDER_CONFIG_ROUTE: PluginRoute = {
  method: 'POST',
  path: 'render-config',
  permission: 'authenticated',
  safePost: true,
  openapi: {
    summary: 'Render a config template against the peering context of a device and/or sessions (the output contains BGP passwords)',
    parameters: [{ name: 'include_context', description: 'true: add the template context under `context`', schema: { type: 'boolean' } }],
    request: RENDER_REQUEST_SCHEMA,
    response: RENDER_RESPONSE_SCHEMA,
  },
  handle: async (context) => {
    const { manager, query, settings, serializer, scope, headers } = context;
    const request = parseBody(context.body);
    await checkReferences(context, request, settings.render_config_requires_view === true);
    const text = wantsText(headers.accept);
    const [template] = (await manager.query('SELECT template_code, environment_params FROM extras_configtemplate WHERE id = $1', [
      request.template,
    ])) as Array<{
      template_code: string;
      environment_params: unknown;
    }>;
    const templateContext = await peeringContext(manager, request.device, request.sessions);
    let content: string;
    try {
      content = await renderConfigTemplate(
        template.template_code,
        templateContext,
        {},
        {
          ...environmentOptions(template.environment_params),
          filterModules: [PEERING_TEMPLATE_FILTERS_MODULE],
          requester: `${scope.principal.kind}:${scope.principal.id}`,
        },
      );
    } catch (error) {
      if (!(error instanceof ConfigTemplateError)) throw error;
      return text
        ? RouteResponse.text(error.message, 'text/plain', 500)
        : RouteResponse.json({ detail: error.message }, 'application/json', 500);
    }
    if (text) return RouteResponse.text(content);
    const includeContext =
      String(Array.isArray(query.include_context) ? query.include_context.at(-1) : (query.include_context ?? '')).toLowerCase() === 'true';
    const configtemplate = (await serializer.briefByIds(manager, 'extras.configtemplate', [request.template], scope.baseUrl)).get(
      request.template,
    );
    const device = templateContext.device as { id: number; name: string | null } | null;
    return {
      configtemplate,
      content,
      ...(device ? { device: { id: device.id, name: device.name } } : {}),
      session_count: templateContext.sessions.length,
      ...(includeContext ? { context: templateContext } : {}),
    };
  },
};
