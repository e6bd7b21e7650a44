import { describeResourceApi, unique, usePlatformApp } from './support/resource-api-kit';

const E = '/api/extras';

const NTP_SCHEMA = {
  type: 'object',
  properties: { ntp_servers: { type: 'array', items: { type: 'string', format: 'ipv4' } }, timezone: { type: 'string' } },
  required: ['ntp_servers'],
};

/**
 * Config context profiles (NetBox 4.4+): the generic REST and GraphQL contract, the schema's own
 * checks, and config contexts' `data` held to their profile's schema.
 */
describe('platform extras: config context profiles', () => {
  const app = usePlatformApp();

  describeResourceApi({
    app,
    path: `${E}/config-context-profiles/`,
    objectType: 'extras.configcontextprofile',
    graphqlName: 'config_context_profile',
    create: [
      { name: 'ntp', description: 'time', schema: NTP_SCHEMA },
      { name: 'syslog', schema: { $schema: 'http://json-schema.org/draft-07/schema#', properties: { host: { type: 'string' } } } },
      { name: 'free-form', comments: 'no schema' },
    ],
    update: { name: 'ntp-v2', description: 'servers', schema: { properties: { ntp_servers: { type: 'array' } } } },
    bulkUpdate: { description: 'bulk' },
    brief: ['id', 'url', 'display', 'name', 'description'],
    filters: { 'name=syslog': [1], 'q=time': [0], 'description=time': [0] },
    invalid: [
      { body: { description: 'no name' }, field: 'name' },
      { body: { name: 'no properties', schema: { type: 'object' } }, field: 'schema' },
      { body: { name: 'not an object', schema: [1, 2] }, field: 'schema' },
      { body: { name: 'unknown draft', schema: { $schema: 'http://example.com/schema', properties: { a: {} } } }, field: 'schema' },
    ],
  });

  it('holds a config context’s data to its profile’s schema, on create and update, and protects a profile in use', async () => {
    const { api } = app();
    const profile = await api.created(`${E}/config-context-profiles/`, { name: unique('profile'), schema: NTP_SCHEMA });
    expect(profile.schema).toEqual(NTP_SCHEMA);

    const missing = await api.post(`${E}/config-contexts/`, { name: unique('context'), profile: profile.id, data: { timezone: 'UTC' } });
    expect(missing.status).toBe(400);
    expect(missing.body.non_field_errors).toEqual([expect.stringMatching(/^Data does not conform to profile schema: .*ntp_servers/)]);
    const wrongFormat = await api.post(`${E}/config-contexts/`, {
      name: unique('context'),
      profile: profile.id,
      data: { ntp_servers: ['not-an-ip'] },
    });
    expect(wrongFormat.status).toBe(400);
    expect(wrongFormat.body.non_field_errors).toEqual([
      expect.stringMatching(/^Data does not conform to profile schema: .*#\/ntp_servers\/0/),
    ]);

    const context = await api.created(`${E}/config-contexts/`, {
      name: unique('context'),
      profile: profile.id,
      data: { ntp_servers: ['192.0.2.1'] },
    });
    expect(context.profile).toMatchObject({ id: profile.id, name: profile.name, description: '' });
    const filtered = await api.get(`${E}/config-contexts/?profile_id=${profile.id}`);
    expect(filtered.body.results.map((row: { id: number }) => row.id)).toEqual([context.id]);
    const byName = await api.get(`${E}/config-contexts/?profile=${encodeURIComponent(profile.name)}`);
    expect(byName.body.results.map((row: { id: number }) => row.id)).toEqual([context.id]);

    // A PATCH of the data alone is checked against the stored profile.
    const patched = await api.patch(`${E}/config-contexts/${context.id}/`, { data: { ntp_servers: 'one' } });
    expect(patched.status).toBe(400);
    expect((await api.get(`${E}/config-contexts/${context.id}/`)).body.data).toEqual({ ntp_servers: ['192.0.2.1'] });

    expect((await api.delete(`${E}/config-context-profiles/${profile.id}/`)).status).toBe(409);
    expect((await api.patch(`${E}/config-contexts/${context.id}/`, { profile: null, data: { anything: true } })).status).toBe(200);
    expect((await api.delete(`${E}/config-context-profiles/${profile.id}/`)).status).toBe(204);

    const graph = await api.post('/graphql/', { query: `{ config_context(id: ${context.id}) { profile { id } } }` });
    expect(graph.body).toEqual({ data: { config_context: { profile: null } } });
  });
});
