import { ObjectTypeResource } from '../core/core.resources';
import {
  boolean,
  choice,
  color,
  genericRelation,
  integer,
  json,
  longText,
  many,
  relation,
  slug,
  stringList,
  text,
} from '../framework/resource/fields';
import { defineResource } from '../framework/resource/resource-definition';
import { UserResource } from '../users/users.resources';
import { validateCondition } from './events/event-condition';
import { validateAdditionalHeaders } from './events/webhook-request';
import { templateFieldProblems } from './config-templates/config-template-renderer';
import { contextDataProblems } from './config-contexts';
import { contextProfileProblems, profileSchemaProblems } from './context-schemas';

export const TagResource = defineResource({
  appLabel: 'extras',
  model: 'tag',
  path: 'tags',
  verboseName: 'tag',
  table: 'extras_tag',
  fields: {
    name: text({ maxLength: 100, required: true, unique: true, search: true }),
    slug: slug(),
    color: color({ default: '9e9e9e' }),
    description: text({ maxLength: 200, search: true }),
  },
  display: (row) => String(row.name),
  brief: ['name', 'slug', 'color', 'description'],
  ordering: ['name'],
  standard: { tags: false, customFields: false },
});

export const CUSTOM_FIELD_TYPES = [
  'text',
  'longtext',
  'integer',
  'decimal',
  'boolean',
  'date',
  'datetime',
  'url',
  'json',
  'select',
  'multiselect',
  'object',
  'multiobject',
] as const;
export type CustomFieldType = (typeof CUSTOM_FIELD_TYPES)[number];

const CUSTOM_FIELD_NAME = { regex: /^[a-z0-9_]+$/, message: 'Only lowercase letters, digits and underscores are allowed.' };

export const CustomFieldResource = defineResource({
  appLabel: 'extras',
  model: 'customfield',
  path: 'custom-fields',
  verboseName: 'custom field',
  table: 'extras_customfield',
  fields: {
    object_types: many(() => ObjectTypeResource, { required: true }),
    type: choice(
      CUSTOM_FIELD_TYPES.map((type) => [type, type === 'longtext' ? 'Text (long)' : type.charAt(0).toUpperCase() + type.slice(1)] as const),
      { required: true, createOnly: true },
    ),
    related_object_type: relation(() => ObjectTypeResource, { onDelete: 'PROTECT' }),
    name: text({ maxLength: 50, required: true, unique: true, search: true, pattern: CUSTOM_FIELD_NAME }),
    label: text({ maxLength: 50, search: true }),
    group_name: text({ maxLength: 50 }),
    description: text({ maxLength: 200, search: true }),
    required: boolean({ default: false }),
    weight: integer({ default: 100, min: 0, max: 32767 }),
    default: json({ nullable: true }),
    validation_minimum: integer({ nullable: true }),
    validation_maximum: integer({ nullable: true }),
    validation_regex: text({ maxLength: 500 }),
    choices: stringList(),
  },
  display: (row) => String(row.label || row.name),
  brief: ['name', 'description'],
  ordering: ['weight', 'name'],
  standard: { tags: false, customFields: false },
  validate: (values) => {
    const problems: Record<string, string[]> = {};
    if ((values.type === 'select' || values.type === 'multiselect') && (values.choices as string[] | undefined)?.length === 0) {
      problems.choices = ['Selection fields need at least one choice.'];
    }
    if ((values.type === 'object' || values.type === 'multiobject') && values.related_object_type_id == null) {
      problems.related_object_type = ['Object fields must define an object type.'];
    }
    if (typeof values.validation_regex === 'string' && values.validation_regex !== '') {
      try {
        new RegExp(values.validation_regex);
      } catch {
        problems.validation_regex = ['Enter a valid regular expression.'];
      }
    }
    const min = values.validation_minimum as number | null;
    const max = values.validation_maximum as number | null;
    if (min != null && max != null && min > max) problems.validation_maximum = ['The maximum must not be below the minimum.'];
    return problems;
  },
});

export const JournalEntryResource = defineResource({
  appLabel: 'extras',
  model: 'journalentry',
  path: 'journal-entries',
  verboseName: 'journal entry',
  table: 'extras_journalentry',
  fields: {
    assigned_object: genericRelation({ required: true, onDelete: 'CASCADE' }),
    created_by: relation(() => UserResource, { onDelete: 'SET NULL', readOnly: true, defaultToCurrentUser: true }),
    kind: choice(
      [
        ['info', 'Info'],
        ['success', 'Success'],
        ['warning', 'Warning'],
        ['danger', 'Danger'],
      ],
      { default: 'info' },
    ),
    comments: longText({ required: true, search: true }),
  },
  display: (row) => `${String(row.created ?? '')} (${String(row.kind)})`,
  relatedObject: 'assigned_object',
  brief: ['created', 'kind'],
  ordering: ['-created'],
});

export const WebhookResource = defineResource({
  appLabel: 'extras',
  model: 'webhook',
  path: 'webhooks',
  verboseName: 'webhook',
  table: 'extras_webhook',
  fields: {
    name: text({ maxLength: 150, required: true, unique: true, search: true }),
    description: text({ maxLength: 200, search: true }),
    payload_url: text({
      maxLength: 500,
      required: true,
      search: true,
      pattern: { regex: /^https?:\/\/\S+$/i, message: 'Enter a valid http or https URL.' },
    }),
    http_method: choice(['GET', 'POST', 'PUT', 'PATCH', 'DELETE'], { default: 'POST' }),
    http_content_type: text({ maxLength: 100, default: 'application/json' }),
    additional_headers: longText(),
    body_template: longText(),
    secret: text({ maxLength: 255, writeOnly: true }),
    ssl_verification: boolean({ default: true }),
    ca_file_path: text({ maxLength: 4096, nullable: true }),
    // Whoever last wrote the webhook decides where deliveries go: they are limited to what that user may view.
    owner: relation(() => UserResource, { onDelete: 'SET NULL', readOnly: true, setToWriter: true }),
  },
  display: (row) => String(row.name),
  brief: ['name', 'description'],
  ordering: ['name'],
  validate: (values, { egress }): Record<string, string[]> => {
    const problems: Record<string, string[]> = {};
    const headerProblems = typeof values.additional_headers === 'string' ? validateAdditionalHeaders(values.additional_headers) : [];
    if (headerProblems.length > 0) problems.additional_headers = headerProblems;
    // A literal address is judged now; a host name when a delivery connects (it may resolve elsewhere by then).
    const urlProblem = typeof values.payload_url === 'string' ? egress.urlProblem(values.payload_url) : undefined;
    if (urlProblem !== undefined) problems.payload_url = [`The server may not send requests there: ${urlProblem}.`];
    const caFileProblem =
      typeof values.ca_file_path === 'string' && values.ca_file_path !== '' ? egress.caFileProblem(values.ca_file_path) : undefined;
    if (caFileProblem !== undefined) problems.ca_file_path = [`Not usable: ${caFileProblem}.`];
    return { ...problems, ...templateFieldProblems(values, ['body_template']) };
  },
});

export const EVENT_TYPES = ['object_created', 'object_updated', 'object_deleted'] as const;

export const EventRuleResource = defineResource({
  appLabel: 'extras',
  model: 'eventrule',
  path: 'event-rules',
  verboseName: 'event rule',
  table: 'extras_eventrule',
  fields: {
    name: text({ maxLength: 150, required: true, unique: true, search: true }),
    description: text({ maxLength: 200, search: true }),
    object_types: many(() => ObjectTypeResource, { required: true }),
    enabled: boolean({ default: true }),
    event_types: stringList({ required: true, choices: EVENT_TYPES }),
    conditions: json({ nullable: true, validate: (value) => (value === null ? [] : validateCondition(value)) }),
    action_type: choice([['webhook', 'Webhook']], { default: 'webhook' }),
    action_object: genericRelation({ required: true, onDelete: 'CASCADE', allowedTypes: ['extras.webhook'] }),
    // Whoever last wrote the rule: it delivers only what that user may view (event-rules.dispatcher.ts).
    owner: relation(() => UserResource, { onDelete: 'SET NULL', readOnly: true, setToWriter: true }),
  },
  display: (row) => String(row.name),
  brief: ['name', 'description'],
  ordering: ['name'],
});

/** Jinja configuration templates rendered for devices (`POST /api/dcim/devices/{id}/render-config/`). */
export const ConfigTemplateResource = defineResource({
  appLabel: 'extras',
  model: 'configtemplate',
  path: 'config-templates',
  verboseName: 'config template',
  table: 'extras_configtemplate',
  fields: {
    name: text({ maxLength: 100, required: true, unique: true, search: true }),
    description: text({ maxLength: 200, search: true }),
    environment_params: json({ nullable: true, default: () => ({}) }),
    template_code: longText({ required: true, search: true }),
    mime_type: text({ maxLength: 50 }),
    file_name: text({ maxLength: 200 }),
    file_extension: text({ maxLength: 15 }),
    as_attachment: boolean({ default: true }),
  },
  display: (row) => String(row.name),
  brief: ['name', 'description'],
  ordering: ['name'],
  validate: (values) => templateFieldProblems(values, ['template_code']),
});

/** NetBox's saved filter parameters: a JSON object of filter names to values. */
function filterParametersProblems(value: unknown): string[] {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? []
    : ['Filter parameters must be stored as a dictionary of keyword arguments.'];
}

/** A named set of list filters for some object types, the user's own or shared. */
export const SavedFilterResource = defineResource({
  appLabel: 'extras',
  model: 'savedfilter',
  path: 'saved-filters',
  verboseName: 'saved filter',
  table: 'extras_savedfilter',
  fields: {
    object_types: many(() => ObjectTypeResource, { required: true }),
    name: text({ maxLength: 100, required: true, unique: true, search: true }),
    slug: slug(),
    description: text({ maxLength: 200, search: true }),
    user: relation(() => UserResource, { onDelete: 'SET NULL' }),
    weight: integer({ min: 0, max: 32767, default: 100 }),
    enabled: boolean({ default: true }),
    shared: boolean({ default: true }),
    parameters: json({ required: true, nullable: false, validate: filterParametersProblems, noFilter: true }),
  },
  display: (row) => String(row.name),
  brief: ['name', 'slug', 'description'],
  ordering: ['weight', 'name'],
  standard: { tags: false, customFields: false },
  validateAsync: async (manager, values): Promise<Record<string, string[]>> => {
    const slugs = (values.tags as string[] | undefined) ?? [];
    if (slugs.length === 0) return contextProfileProblems(manager, values);
    const found = (await manager.query('SELECT slug FROM extras_tag WHERE slug = ANY($1)', [slugs])) as Array<{ slug: string }>;
    const missing = slugs.filter((wanted) => !found.some(({ slug: known }) => known === wanted));
    if (missing.length > 0) return { tags: missing.map((name) => `Object with slug=${name} does not exist.`) };
    return contextProfileProblems(manager, values);
  },
});

/**
 * A Jinja template rendering a list of objects (`GET /api/<app>/<model>/?export=<name>`, the
 * filtered list as `queryset`), in the same sandbox as config templates.
 */
export const ExportTemplateResource = defineResource({
  appLabel: 'extras',
  model: 'exporttemplate',
  path: 'export-templates',
  verboseName: 'export template',
  table: 'extras_exporttemplate',
  fields: {
    object_types: many(() => ObjectTypeResource, { required: true }),
    name: text({ maxLength: 100, required: true, search: true }),
    description: text({ maxLength: 200, search: true }),
    environment_params: json({ nullable: true, default: () => ({}) }),
    template_code: longText({ required: true }),
    mime_type: text({ maxLength: 50, label: 'MIME type' }),
    file_name: text({ maxLength: 200 }),
    file_extension: text({ maxLength: 15 }),
    as_attachment: boolean({ default: true }),
  },
  display: (row) => String(row.name),
  brief: ['name', 'description'],
  ordering: ['name'],
  standard: { tags: false, customFields: false },
  validate: (values) => {
    const problems = templateFieldProblems(values, ['template_code']);
    if (typeof values.name === 'string' && values.name.toLowerCase() === 'table') {
      return { ...problems, name: [`"${values.name}" is a reserved name. Please choose a different name.`] };
    }
    return problems;
  },
});

/**
 * Configuration data applied to the devices and virtual machines it matches (every kind of object
 * it names must include the device's or VM's own; a kind left empty matches all), merged by weight
 * into their `config_context` (src/platform/extras/config-contexts.ts).
 */
/** A JSON schema that the data of the config contexts assigned to it must satisfy (NetBox 4.4+). */
export const ConfigContextProfileResource = defineResource({
  appLabel: 'extras',
  model: 'configcontextprofile',
  path: 'config-context-profiles',
  verboseName: 'config context profile',
  table: 'extras_configcontextprofile',
  fields: {
    name: text({ maxLength: 100, required: true, unique: true, search: true }),
    description: text({ maxLength: 200, search: true }),
    schema: json({ nullable: true, validate: profileSchemaProblems, noFilter: true }),
    comments: longText({ search: true }),
  },
  display: (row) => String(row.name),
  brief: ['name', 'description'],
  ordering: ['name'],
});

export const ConfigContextResource = defineResource({
  appLabel: 'extras',
  model: 'configcontext',
  path: 'config-contexts',
  verboseName: 'config context',
  table: 'extras_configcontext',
  fields: {
    name: text({ maxLength: 100, required: true, unique: true, search: true }),
    profile: relation(() => ConfigContextProfileResource, { onDelete: 'PROTECT' }),
    weight: integer({ min: 0, max: 32767, default: 1000 }),
    description: text({ maxLength: 200, search: true }),
    is_active: boolean({ default: true }),
    regions: many('dcim.region'),
    site_groups: many('dcim.sitegroup'),
    sites: many('dcim.site'),
    locations: many('dcim.location'),
    device_types: many('dcim.devicetype'),
    roles: many('dcim.devicerole'),
    platforms: many('dcim.platform'),
    cluster_types: many('virtualization.clustertype'),
    cluster_groups: many('virtualization.clustergroup'),
    clusters: many('virtualization.cluster'),
    tenant_groups: many('tenancy.tenantgroup'),
    tenants: many('tenancy.tenant'),
    // Tag slugs, as NetBox's config context serializer reads and writes them.
    tags: stringList({ itemPattern: { regex: /^[-a-zA-Z0-9_]+$/, message: 'Enter a valid tag slug.' } }),
    data: json({ required: true, nullable: false, validate: contextDataProblems, noFilter: true }),
  },
  display: (row) => String(row.name),
  brief: ['name', 'description'],
  ordering: ['weight', 'name'],
  standard: { tags: false, customFields: false },
  validateAsync: async (manager, values): Promise<Record<string, string[]>> => {
    const slugs = (values.tags as string[] | undefined) ?? [];
    if (slugs.length === 0) return contextProfileProblems(manager, values);
    const found = (await manager.query('SELECT slug FROM extras_tag WHERE slug = ANY($1)', [slugs])) as Array<{ slug: string }>;
    const missing = slugs.filter((wanted) => !found.some(({ slug: known }) => known === wanted));
    if (missing.length > 0) return { tags: missing.map((name) => `Object with slug=${name} does not exist.`) };
    return contextProfileProblems(manager, values);
  },
});
