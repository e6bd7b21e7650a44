import { parse as parseYaml } from 'yaml';
import {
  boolean,
  choice,
  ContactRoleResource,
  defineResource,
  integer,
  json,
  longText,
  many,
  relation,
  slug,
  stringList,
  templateFieldProblems,
  text,
} from '../../platform/plugin-api';
import { NOTICES_API_PREFIX } from './api-prefix';
import { inlineTemplateScopes } from './template-scopes-inline';

/**
 * Templates of outbound notifications (subject, body in markdown, HTML or text, CSS, headers, iCal),
 * selected for an event by scope and weight and merged along `extends` (template-composition.ts),
 * and the scopes that select them.
 */
export const TEMPLATE_EVENT_TYPES = [
  ['maintenance', 'Maintenance'],
  ['outage', 'Outage'],
  ['both', 'Both'],
  ['none', 'None (standalone)'],
] as const;
export const GRANULARITIES = [
  ['per_event', 'One per event'],
  ['per_tenant', 'One per tenant'],
  ['per_impact', 'One per impact'],
] as const;
export const BODY_FORMATS = [
  ['markdown', 'Markdown'],
  ['html', 'HTML'],
  ['text', 'Plain text'],
] as const;
export const CONTACT_PRIORITIES = ['primary', 'secondary', 'tertiary'] as const;

/** A header set: an object of header names to text, or YAML text of one. */
export function headerProblems(value: unknown): string[] {
  let headers = value;
  if (typeof value === 'string') {
    try {
      headers = parseYaml(value) ?? {};
    } catch (error) {
      return [`Invalid YAML: ${(error as Error).message.split('\n')[0]}`];
    }
  }
  if (headers === null) return [];
  if (typeof headers !== 'object' || Array.isArray(headers)) return ['Headers must be a mapping of header names to values.'];
  const bad = Object.entries(headers as Record<string, unknown>).find(
    ([name, text]) => !/^[!-9;-~]+$/.test(name) || (typeof text !== 'string' && typeof text !== 'number'),
  );
  return bad ? [`Header ${JSON.stringify(bad[0])} must be a valid header name with a text value.`] : [];
}

/** The headers of a template as an object (YAML text parsed). */
export function headersOf(value: unknown): Record<string, string> {
  const parsed = typeof value === 'string' ? (parseYaml(value) as unknown) : value;
  if (!parsed || typeof parsed !== 'object') return {};
  return Object.fromEntries(Object.entries(parsed as Record<string, unknown>).map(([name, text]) => [name, String(text)]));
}

export const NotificationTemplateResource = defineResource({
  appLabel: 'notices',
  model: 'notificationtemplate',
  path: 'notification-templates',
  apiPrefix: NOTICES_API_PREFIX,
  verboseName: 'notification template',
  graphqlName: 'notification_template',
  table: 'notices_notificationtemplate',
  fields: {
    name: text({ maxLength: 100, required: true, search: true }),
    slug: slug(),
    description: text({ maxLength: 200, search: true }),
    event_type: choice(TEMPLATE_EVENT_TYPES, { default: 'both' }),
    granularity: choice(GRANULARITIES, { default: 'per_tenant' }),
    subject_template: longText(),
    body_template: longText(),
    body_format: choice(BODY_FORMATS, { default: 'markdown' }),
    css_template: longText(),
    headers_template: json({ default: () => ({}), validate: headerProblems }),
    include_ical: boolean({ default: false }),
    ical_template: longText(),
    contact_roles: many(() => ContactRoleResource),
    contact_priorities: stringList({ choices: CONTACT_PRIORITIES }),
    is_base_template: boolean({ default: false }),
    extends: relation(() => NotificationTemplateResource, { onDelete: 'SET NULL' }),
    weight: integer({ min: 0, max: 32767, default: 1000 }),
  },
  display: (row) => String(row.name),
  brief: ['name', 'slug', 'description'],
  ordering: ['-weight', 'name'],
  validate: (values) => templateFieldProblems(values, ['subject_template', 'body_template', 'css_template', 'ical_template']),
  // `extends` may not lead back to the template itself.
  validateAsync: async (manager, values): Promise<Record<string, string[]>> => {
    const seen = new Set<number>(values.id === undefined ? [] : [Number(values.id)]);
    let next = values.extends_id === null || values.extends_id === undefined ? null : Number(values.extends_id);
    while (next !== null) {
      if (seen.has(next)) return { extends: ['A template cannot extend itself, directly or through others.'] };
      seen.add(next);
      const [row] = (await manager.query('SELECT extends_id FROM notices_notificationtemplate WHERE id = $1', [next])) as Array<{
        extends_id: number | null;
      }>;
      next = row?.extends_id ?? null;
    }
    return {};
  },
  extensions: [inlineTemplateScopes],
  requestOnly: {
    scopes: {
      type: 'array',
      description: 'Replaces all the template\'s scopes. content_type: the model name ("tenant"), "app.model" or the id.',
      items: {
        type: 'object',
        required: ['content_type'],
        properties: {
          content_type: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
          object_id: { type: 'integer', nullable: true },
          event_type: { type: 'string', enum: ['', 'maintenance', 'outage'] },
          event_status: { type: 'string', maxLength: 30 },
          weight: { type: 'integer', minimum: 0, maximum: 32767 },
        },
      },
    },
  },
});

export const TemplateScopeResource = defineResource({
  appLabel: 'notices',
  model: 'templatescope',
  path: 'template-scopes',
  apiPrefix: NOTICES_API_PREFIX,
  verboseName: 'template scope',
  graphqlName: 'template_scope',
  table: 'notices_templatescope',
  fields: {
    template: relation(() => NotificationTemplateResource, { onDelete: 'CASCADE', required: true }),
    // What the scope matches: a tenant, a provider, the event's own type…; object_id null matches any of that type.
    content_type: relation('core.objecttype', { onDelete: 'CASCADE', required: true }),
    object_id: integer({ min: 1, max: 2_147_483_647, nullable: true }),
    event_type: choice(
      [
        ['maintenance', 'Maintenance'],
        ['outage', 'Outage'],
      ],
      { blank: true },
    ),
    event_status: text({ maxLength: 30 }),
    weight: integer({ min: 0, max: 32767, default: 1000 }),
  },
  display: (row) => `Scope ${String(row.id)} of template ${String(row.template_id)}`,
  brief: ['template', 'content_type', 'object_id', 'weight'],
  ordering: ['template', '-weight'],
  uniqueTogether: [{ fields: ['template', 'content_type', 'object_id', 'event_type', 'event_status'], nullsEqual: true }],
  relatedObject: 'template',
});
