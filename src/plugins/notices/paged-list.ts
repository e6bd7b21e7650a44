import type { OpenApiSchema, PluginRouteContext, QueryParameters, ResourceDefinition } from '../../platform/plugin-api';

/**
 * A NetBox-style page (`count`, `next`, `previous`, `results`) of a model's rows the caller may view,
 * for the plugin's list routes that are a view of a model rather than its own list
 * (`unparsed-emails/`, `sent-notifications/`): `limit` (1–1000, default 50) and `offset` as NetBox's.
 */

const integer = { type: 'integer' } as const;

export const PAGE_PARAMETERS = [
  { name: 'limit', description: 'Page size (1–1000, default 50)', schema: integer },
  { name: 'offset', description: 'Page start', schema: integer },
];

export const PAGE_SCHEMA: OpenApiSchema = {
  type: 'object',
  required: ['count', 'next', 'previous', 'results'],
  properties: {
    count: integer,
    next: { type: 'string', nullable: true },
    previous: { type: 'string', nullable: true },
    results: { type: 'array', items: { type: 'object' } },
  },
};

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** The page the request asks for of `definition`'s visible rows under `filters` (none: an empty page), serialized in full. */
export async function pagedList(context: PluginRouteContext, definition: ResourceDefinition, filters: QueryParameters | null) {
  const limit = Math.min(Math.max(Number(first(context.query.limit)) || 50, 1), 1000);
  const offset = Math.max(Number(first(context.query.offset)) || 0, 0);
  const count = filters ? await context.countVisible(definition.objectType, filters) : 0;
  const rows = filters && offset < count ? await context.visibleRows(definition.objectType, filters, { limit, offset }) : [];
  const link = (at: number) => {
    const url = new URL(context.scope.requestUrl);
    url.searchParams.set('limit', String(limit));
    url.searchParams.set('offset', String(at));
    return url.toString();
  };
  return {
    count,
    next: offset + limit < count ? link(offset + limit) : null,
    previous: offset > 0 ? link(Math.max(offset - limit, 0)) : null,
    results: await context.serializer.serialize(context.manager, definition, rows, 'full', context.scope.baseUrl),
  };
}
