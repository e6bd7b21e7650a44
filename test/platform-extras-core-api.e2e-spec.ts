import { describeResourceApi, unique, usePlatformApp } from './support/resource-api-kit';

const E = '/api/extras';

/**
 * The generic REST and GraphQL contract (test/support/resource-api-kit.ts) of tags, custom fields,
 * journal entries, webhooks, event rules and config templates; their own rules are in
 * platform-rest.e2e-spec.ts, platform-webhooks.e2e-spec.ts and config-template-sandbox.e2e-spec.ts.
 */
describe('platform extras: the REST and GraphQL contract of tags, custom fields, journal entries, webhooks, event rules and config templates', () => {
  const app = usePlatformApp();

  describeResourceApi({
    app,
    path: `${E}/tags/`,
    objectType: 'extras.tag',
    graphqlName: 'tag',
    create: [
      { name: 'Production', slug: 'production', color: 'ff0000', description: 'live' },
      { name: 'Lab', slug: 'lab' },
      { name: 'Legacy', slug: 'legacy', color: '00ff00' },
    ],
    update: { name: 'Prod', slug: 'prod', color: 'aa1409' },
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'name', 'slug', 'color', 'description'],
    filters: { 'name=Lab': [1], 'color=00ff00': [2], 'q=live': [0] },
    invalid: [
      { body: { slug: 'nameless' }, field: 'name' },
      { body: { name: 'Bad colour', slug: 'bad-colour', color: 'red' }, field: 'color' },
    ],
  });

  describeResourceApi({
    app,
    path: `${E}/custom-fields/`,
    objectType: 'extras.customfield',
    graphqlName: 'custom_field',
    create: [
      { name: 'circuit_ref', type: 'text', object_types: ['dcim.site'], label: 'Circuit ref', required: false },
      { name: 'rack_units', type: 'integer', object_types: ['dcim.device'], validation_minimum: 1, validation_maximum: 48 },
      { name: 'monitored', type: 'boolean', object_types: ['dcim.site', 'dcim.device'], weight: 200 },
    ],
    update: { label: 'Circuit reference', description: 'from the carrier', weight: 50 },
    bulkUpdate: { group_name: 'bulk' },
    brief: ['id', 'url', 'display', 'name', 'description'],
    filters: { 'name=monitored': [2], 'type=integer': [1], 'weight=200': [2] },
    invalid: [
      { body: { name: 'Bad Name', type: 'text', object_types: ['dcim.site'] }, field: 'name' },
      { body: { name: 'bad_type', type: 'colour', object_types: ['dcim.site'] }, field: 'type' },
      { body: { name: 'no_types', type: 'text' }, field: 'object_types' },
    ],
  });

  describeResourceApi({
    app,
    path: `${E}/journal-entries/`,
    objectType: 'extras.journalentry',
    graphqlName: 'journal_entry',
    fixtures: async ({ factories }) => ({ sites: [await factories.site(), await factories.site()] }),
    create: ({ sites: [s1, s2] }) => [
      { assigned_object_type: 'dcim.site', assigned_object_id: s1.id, comments: 'power work tonight', kind: 'warning' },
      { assigned_object_type: 'dcim.site', assigned_object_id: s1.id, comments: 'done' },
      { assigned_object_type: 'dcim.site', assigned_object_id: s2.id, comments: 'flooded', kind: 'danger' },
    ],
    update: { comments: 'power work postponed', kind: 'info' },
    bulkUpdate: { kind: 'success' },
    brief: ['id', 'url', 'display', 'created', 'kind'],
    filters: ({ sites: [s1] }) => ({ [`assigned_object_id=${s1.id}`]: [0, 1], 'kind=danger': [2], 'q=flooded': [2] }),
    invalid: [
      { body: ({ sites }) => ({ assigned_object_type: 'dcim.site', assigned_object_id: sites[0].id }), field: 'comments' },
      {
        body: ({ sites }) => ({ assigned_object_type: 'dcim.site', assigned_object_id: sites[0].id, comments: 'x', kind: 'fatal' }),
        field: 'kind',
      },
    ],
  });

  describeResourceApi({
    app,
    path: `${E}/webhooks/`,
    objectType: 'extras.webhook',
    graphqlName: 'webhook',
    create: [
      { name: 'Slack', payload_url: 'https://hooks.example.net/slack', description: 'chat' },
      { name: 'CMDB', payload_url: 'http://cmdb.example.net/in', http_method: 'PUT', ssl_verification: false },
      { name: 'Audit', payload_url: 'https://audit.example.net/', body_template: '{"id": {{ data.id }}}' },
    ],
    update: { name: 'Slack alerts', payload_url: 'https://hooks.example.net/alerts', http_method: 'PATCH' },
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'name', 'description'],
    filters: { 'name=CMDB': [1], 'http_method=PUT': [1], 'ssl_verification=false': [1], 'q=chat': [0] },
    invalid: [
      { body: { name: 'No URL' }, field: 'payload_url' },
      { body: { name: 'Bad URL', payload_url: 'ftp://example.net/' }, field: 'payload_url' },
      { body: { name: 'Bad method', payload_url: 'https://example.net/', http_method: 'TRACE' }, field: 'http_method' },
    ],
  });

  describeResourceApi({
    app,
    path: `${E}/event-rules/`,
    objectType: 'extras.eventrule',
    graphqlName: 'event_rule',
    fixtures: async ({ api }) => ({
      webhook: await api.created(`${E}/webhooks/`, { name: unique('hook'), payload_url: 'https://hooks.example.net/rules' }),
    }),
    create: ({ webhook }) => [
      {
        name: 'site created',
        object_types: ['dcim.site'],
        event_types: ['object_created'],
        action_object_type: 'extras.webhook',
        action_object_id: webhook.id,
      },
      {
        name: 'device changes',
        object_types: ['dcim.device'],
        event_types: ['object_updated', 'object_deleted'],
        action_object_type: 'extras.webhook',
        action_object_id: webhook.id,
        enabled: false,
      },
      {
        name: 'active sites',
        object_types: ['dcim.site'],
        event_types: ['object_updated'],
        action_object_type: 'extras.webhook',
        action_object_id: webhook.id,
      },
    ],
    // A JSON object in a create body would read as a relation in the GraphQL cases: conditions are sent on update.
    update: {
      name: 'sites created',
      event_types: ['object_created', 'object_deleted'],
      enabled: false,
      conditions: { attr: 'status.value', value: 'active' },
    },
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'name', 'description'],
    filters: { 'name=device changes': [1], 'enabled=false': [1] },
    invalid: [
      {
        body: ({ webhook }) => ({
          name: 'bad event',
          object_types: ['dcim.site'],
          event_types: ['object_renamed'],
          action_object_type: 'extras.webhook',
          action_object_id: webhook.id,
        }),
        field: 'event_types',
      },
      { body: { name: 'no action', object_types: ['dcim.site'], event_types: ['object_created'] }, field: 'action_object_type' },
    ],
  });

  describeResourceApi({
    app,
    path: `${E}/config-templates/`,
    objectType: 'extras.configtemplate',
    graphqlName: 'config_template',
    create: [
      { name: 'Junos base', template_code: 'system { host-name {{ device.name }}; }', description: 'juniper' },
      { name: 'EOS base', template_code: 'hostname {{ device.name }}', file_extension: 'cfg', as_attachment: false },
      {
        name: 'JSON',
        template_code: '{"name": "{{ device.name }}"}',
        mime_type: 'application/json',
        environment_params: { trim_blocks: true },
      },
    ],
    update: { name: 'Junos', template_code: 'system { host-name {{ device.name | upper }}; }', environment_params: { trim_blocks: true } },
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'name', 'description'],
    filters: { 'name=EOS base': [1], 'q=juniper': [0] },
    invalid: [{ body: { name: 'Empty' }, field: 'template_code' }],
  });
});
