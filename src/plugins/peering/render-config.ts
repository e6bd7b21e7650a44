import {
  MAX_OBJECT_ID,
  AfterTransaction,
  ConfigTemplateError,
  type PluginRoute,
  type PluginRouteContext,
  renderConfigTemplate,
  ResourceValidationError,
  RouteResponse,
} from '../../platform/plugin-api';
import { deviceSessionIds, inheritedPasswordTemplateIds, peeringContext, sessionPeerIds } from './peering-context';
import { PEERING_TEMPLATE_FILTERS_MODULE } from './peering-template-filters';

interface RenderRequest {
  template: number;
  device: number | null;
  sessions: number[] | null;
}

function isId(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 && value <= MAX_OBJECT_ID;
}

/** The body's shape, as the spec's serializer checks it: 400 `{field: [message]}`. */
function parseBody(body: unknown): RenderRequest {
  const input = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  const problems: Record<string, string[]> = {};
  if (input.template === undefined || input.template === null) problems.template = ['This field is required.'];
  else if (!isId(input.template)) problems.template = [`Expected a config template id (an integer from 1 to ${MAX_OBJECT_ID}).`];
  const device = input.device ?? null;
  if (device !== null && !isId(device)) problems.device = [`Expected a device id (an integer from 1 to ${MAX_OBJECT_ID}) or null.`];
  const sessions = input.sessions ?? null;
  if (sessions !== null && (!Array.isArray(sessions) || !sessions.every(isId)))
    problems.sessions = [`Expected a list of peering session ids (integers from 1 to ${MAX_OBJECT_ID}).`];
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

const doesNotExist = (id: number) => `Invalid pk "${id}" - object does not exist.`;

/** What a request renders, once the caller's permissions have been applied. */
interface Resolved {
  sessionIds: number[];
  /** BGP peers whose secrets (`password`) the caller may see. */
  secretPeerIds: Set<number>;
  /** Session templates whose password (inherited by a peer) the caller may see. */
  secretTemplateIds: Set<number>;
}

/**
 * The sessions to render and the peers whose password may appear. Sessions, given or the device's,
 * are those the caller may view; a given one it may not view is answered as an unknown id (400), so
 * the answer tells nothing of what exists beyond the caller's view. With `requireView`, the template
 * and the device are checked so too. A password appears only where the caller may view the BGP peer
 * and holds `change` on it, the rule of `secret` fields; one the peer inherits from a session
 * template also needs the same on that template.
 */
async function resolve(context: PluginRouteContext, request: RenderRequest, requireView: boolean): Promise<Resolved> {
  const { manager } = context;
  const usable = async (objectType: string, table: string, ids: readonly number[], checkView: boolean): Promise<Set<number>> => {
    const found = (await manager.query(`SELECT id FROM ${table} WHERE id = ANY($1)`, [ids])) as Array<{ id: number }>;
    const existing = found.map(({ id }) => id);
    return checkView ? context.permittedIds(objectType, 'view', existing) : new Set(existing);
  };
  const problems: Record<string, string[]> = {};
  if (!(await usable('extras.configtemplate', 'extras_configtemplate', [request.template], requireView)).has(request.template)) {
    problems.template = [doesNotExist(request.template)];
  }
  if (request.device !== null && !(await usable('dcim.device', 'dcim_device', [request.device], requireView)).has(request.device)) {
    problems.device = [doesNotExist(request.device)];
  }
  let sessionIds: number[] = [];
  if (request.sessions !== null) {
    const visible = await usable('peering.peeringsession', 'peering_peeringsession', request.sessions, true);
    const unknown = request.sessions.filter((id) => !visible.has(id));
    if (unknown.length > 0) problems.sessions = unknown.map(doesNotExist);
    sessionIds = [...visible].sort((a, b) => a - b);
  }
  if (Object.keys(problems).length > 0) throw new ResourceValidationError(problems);
  if (request.sessions === null) {
    const ofDevice = await deviceSessionIds(manager, request.device!);
    const visible = await context.permittedIds('peering.peeringsession', 'view', ofDevice);
    sessionIds = ofDevice.filter((id) => visible.has(id));
  }
  const peerIds = [...new Set((await sessionPeerIds(manager, sessionIds)).values())];
  const viewable = await context.permittedIds('routing.bgppeer', 'view', peerIds);
  const changeable = await context.permittedIds('routing.bgppeer', 'change', [...viewable]);
  const templateIds = await inheritedPasswordTemplateIds(manager, sessionIds);
  const viewableTemplates = await context.permittedIds('routing.bgpsessiontemplate', 'view', templateIds);
  const changeableTemplates = await context.permittedIds('routing.bgpsessiontemplate', 'change', [...viewableTemplates]);
  return { sessionIds, secretPeerIds: changeable, secretTemplateIds: changeableTemplates };
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
    template: { type: 'integer', minimum: 1, maximum: 2147483647, description: 'The config template (id)' },
    device: {
      type: 'integer',
      minimum: 1,
      maximum: 2147483647,
      nullable: true,
      description:
        "Render the sessions of this device's BGP routers that the caller may view, or fill in the device for the given sessions",
    },
    sessions: {
      type: 'array',
      items: { type: 'integer', minimum: 1, maximum: 2147483647 },
      description: 'Render exactly these peering sessions (each one the caller may view)',
    },
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
    context: {
      type: 'object',
      description: 'The template context, with include_context=true (with the BGP passwords the caller may change)',
    },
  },
};

/**
 * `POST render-config/`: a platform config template rendered against the peering context of a
 * device, of given sessions, or of both. Any authenticated caller may call it (as the spec says),
 * but it renders only the sessions the caller may view, with the password of a BGP peer only when
 * the caller may also change that peer; the plugin setting `render_config_requires_view` (on by
 * default) also requires view permission on the template and the device.
 */
export const RENDER_CONFIG_ROUTE: PluginRoute = {
  method: 'POST',
  path: 'render-config',
  permission: 'authenticated',
  safePost: true,
  openapi: {
    summary:
      'Render a config template against the peering context of a device and/or sessions (the sessions the caller may view; BGP passwords only of peers it may change)',
    parameters: [{ name: 'include_context', description: 'true: add the template context under `context`', schema: { type: 'boolean' } }],
    request: RENDER_REQUEST_SCHEMA,
    response: RENDER_RESPONSE_SCHEMA,
  },
  handle: async (context) => {
    const { manager, query, settings, serializer, scope, headers } = context;
    const request = parseBody(context.body);
    const { sessionIds, secretPeerIds, secretTemplateIds } = await resolve(
      context,
      request,
      settings.render_config_requires_view !== false,
    );
    const text = wantsText(headers.accept);
    const [template] = (await manager.query('SELECT template_code, environment_params FROM extras_configtemplate WHERE id = $1', [
      request.template,
    ])) as Array<{
      template_code: string;
      environment_params: unknown;
    }>;
    const templateContext = await peeringContext(manager, request.device, sessionIds, secretPeerIds, secretTemplateIds);
    const includeContext =
      String(Array.isArray(query.include_context) ? query.include_context.at(-1) : (query.include_context ?? '')).toLowerCase() === 'true';
    const configtemplate = (await serializer.briefByIds(manager, 'extras.configtemplate', [request.template], scope.baseUrl)).get(
      request.template,
    );
    // Rendered once the transaction has ended: a render may take seconds and needs no connection.
    return new AfterTransaction(async () => {
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
      const device = templateContext.device as { id: number; name: string | null } | null;
      return {
        configtemplate,
        content,
        ...(device ? { device: { id: device.id, name: device.name } } : {}),
        session_count: templateContext.sessions.length,
        ...(includeContext ? { context: templateContext } : {}),
      };
    });
  },
};
