import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ApiClient } from './support/api-client';
import { factories, Factories } from './support/factories';
import { OpensslWorkspace } from './support/openssl';
import { PlatformClient, startPlatformApp } from './support/platform-client';
import type { SeededApp } from './support/seeded-app';

/** Issuance bound to the inventory: a service account bound to devices issues only their inventory names. */
describe('enrollment bound to the inventory', () => {
  let seeded: SeededApp;
  let platform: PlatformClient;
  let api: ApiClient;
  let f: Factories;
  let ssl: OpensslWorkspace;
  let ca: any;
  let role: any;
  let edge1: any;
  let edge2: any;
  let token: string;

  beforeAll(async () => {
    ({ seeded, api: platform } = await startPlatformApp({ CA_KEY_SIZE: '2048', INVENTORY_DNS_SUFFIX: 'mgmt.example.net' }));
    api = seeded.api;
    f = factories(platform);
    ssl = new OpensslWorkspace();
    const admin = seeded.w.admin1.token;
    const created = await api.post('/cas/', { name: 'Enrollment CA', subject_dn: 'CN=Enrollment CA', key_type: 'ecdsa-p256' }, admin);
    expect(created.status).toBe(201);
    ca = created.body;
    role = await f.deviceRole();
    edge1 = await f.device({ name: 'Edge1', role: role.id });
    const eth0 = await f.interface({ device: edge1.id });
    await f.ipAddress({ address: '192.0.2.10/24', assigned_object_type: 'dcim.interface', assigned_object_id: eth0.id });
    await f.ipAddress({ address: '2001:db8::10/64', assigned_object_type: 'dcim.interface', assigned_object_id: eth0.id });
    edge2 = await f.device({ name: 'edge2' });
    const account = await api.post('/service-accounts/', { name: 'enroller', can_create_cert: true }, admin);
    expect(account.status).toBe(201);
    const policy = await api.put(
      `/service-accounts/${account.body.id}/policy`,
      {
        allowed_certificate_types: ['server'],
        allowed_ca_ids: [ca.id],
        max_validity_days: 90,
        bound_device_roles: [role.slug.toUpperCase()],
      },
      admin,
    );
    expect(policy.status).toBe(200);
    expect(policy.body).toMatchObject({ bound_device_ids: [], bound_device_tags: [], bound_device_roles: [role.slug] });
    token = (await api.post(`/service-accounts/${account.body.id}/tokens`, { name: 'device' }, admin)).body.token;
  });

  afterAll(async () => {
    ssl?.dispose();
    await seeded?.testApp.close();
  });

  const issue = (body: object) =>
    api.post(`/certificates/?ca_id=${ca.id}`, { certificate_type: 'server', subject_dn: 'O=Test', valid_days: 30, ...body }, token);

  it("issues the device's name with the DNS suffix and its interface addresses, linked to the device (REST and GraphQL)", async () => {
    const issued = await issue({ common_name: 'edge1.mgmt.example.net', san_ip_addresses: ['192.0.2.10', '2001:db8:0::10'] });
    expect(issued.status).toBe(201);
    // sign-csr goes through the same policy: a CSR from openssl for the same names.
    expect(
      ssl.run(
        'req',
        '-new',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:P-256',
        '-nodes',
        '-keyout',
        'edge1.key',
        '-out',
        'edge1.csr',
        '-subj',
        '/CN=edge1.mgmt.example.net',
        '-addext',
        'subjectAltName=DNS:edge1.mgmt.example.net,IP:192.0.2.10',
      ).status,
    ).toBe(0);
    const signed = await api.post(
      '/certificates/sign-csr',
      { csr: readFileSync(join(ssl.dir, 'edge1.csr'), 'utf8'), ca_id: ca.id, certificate_type: 'server', valid_days: 30 },
      token,
    );
    expect(signed.status).toBe(201);
    const device = await platform.get(`/api/dcim/devices/${edge1.id}/`);
    expect(device.body.certificates).toEqual([
      expect.objectContaining({
        id: issued.body.id,
        serial_number: issued.body.serial_number,
        common_name: 'edge1.mgmt.example.net',
        status: 'valid',
        issuer_id: ca.id,
      }),
      expect.objectContaining({ id: signed.body.id, status: 'valid' }),
    ]);
    const graphql = await platform.post('/graphql/', { query: `{ device(id: ${edge1.id}) { name certificates } }` });
    expect(graphql.body.data.device.certificates.map((certificate: any) => certificate.id)).toEqual([issued.body.id, signed.body.id]);
    expect((await platform.get(`/api/dcim/devices/${edge2.id}/`)).body.certificates).toEqual([]);
  });

  it('refuses with 403 naming the first name the inventory does not give the device', async () => {
    const refused = async (body: object, field: string, value: string) => {
      const response = await issue(body);
      expect({ status: response.status, detail: response.body.detail }).toEqual({
        status: 403,
        detail: { code: 'not_in_inventory', field, value, message: expect.stringContaining(value) },
      });
    };
    await refused(
      { common_name: 'edge1.mgmt.example.net', san_dns_names: ['edge1.mgmt.example.net', 'www.example.com'] },
      'san_dns_names',
      'www.example.com',
    );
    await refused({ common_name: 'edge1.mgmt.example.net', san_ip_addresses: ['192.0.2.11'] }, 'san_ip_addresses', '192.0.2.11');
    // edge2 exists but is not of the bound role; the bare name lacks the suffix.
    await refused({ common_name: 'edge2.mgmt.example.net' }, 'common_name', 'edge2.mgmt.example.net');
    await refused({ common_name: 'edge1' }, 'common_name', 'edge1');
  });

  it('revokes the certificates of a device set to decommissioning (cessationOfOperation), and of a deleted one', async () => {
    const edge3 = await f.device({ name: 'edge3', role: role.id });
    const onDeleted = await issue({ common_name: 'edge3.mgmt.example.net' });
    expect(onDeleted.status).toBe(201);
    const before = (await platform.get(`/api/dcim/devices/${edge1.id}/`)).body.certificates;
    expect((await platform.patch(`/api/dcim/devices/${edge1.id}/`, { status: 'decommissioning' })).status).toBe(200);
    for (const { id } of before) {
      const certificate = await api.get(`/certificates/${id}`, seeded.w.admin1.token);
      expect(certificate.body).toMatchObject({ status: 'revoked', revocation_reason: 'cessationOfOperation' });
    }
    // A device being decommissioned is no longer bound.
    expect((await issue({ common_name: 'edge1.mgmt.example.net' })).status).toBe(403);
    expect((await platform.delete(`/api/dcim/devices/${edge3.id}/`)).status).toBe(204);
    expect((await api.get(`/certificates/${onDeleted.body.id}`, seeded.w.admin1.token)).body).toMatchObject({
      status: 'revoked',
      revocation_reason: 'cessationOfOperation',
    });
  });
});
