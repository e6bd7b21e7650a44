import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ApiClient } from './support/api-client';
import { factories, Factories } from './support/factories';
import { OpensslWorkspace } from './support/openssl';
import { PlatformClient, startPlatformApp } from './support/platform-client';
import type { SeededApp } from './support/seeded-app';

const SUFFIX = 'mgmt.example.net';

/**
 * Issuance bound to the inventory: a service account bound to devices (by role, by tag) gets
 * certificates only for its devices' inventory names, through sign-csr and EST (curl + openssl);
 * the certificates show on the device, and decommissioning or deleting the device revokes them
 * (read back with openssl ocsp and from the CRL).
 */
describe('enrollment bound to the inventory', () => {
  let seeded: SeededApp;
  let platform: PlatformClient;
  let api: ApiClient;
  let f: Factories;
  let ssl: OpensslWorkspace;
  let admin: string;
  let ca: any;
  let account: any;
  let token: string;
  let edge1: any;
  let edge2: any;
  let core1: any;

  beforeAll(async () => {
    ({ seeded, api: platform } = await startPlatformApp({ CA_KEY_SIZE: '2048', INVENTORY_DNS_SUFFIX: `.${SUFFIX.toUpperCase()}` }));
    api = seeded.api;
    f = factories(platform);
    ssl = new OpensslWorkspace();
    admin = seeded.w.admin1.token;
    const created = await api.post('/cas/', { name: 'Enrollment CA', subject_dn: 'CN=Enrollment CA', key_type: 'ecdsa-p256' }, admin);
    expect(created.status).toBe(201);
    ca = created.body;
    ssl.write('ca.pem', ca.certificate);
    const edgeRole = await f.deviceRole();
    edge1 = await f.device({ name: 'Edge1', role: edgeRole.id });
    const eth0 = await f.interface({ device: edge1.id });
    await f.ipAddress({ address: '192.0.2.10/24', assigned_object_type: 'dcim.interface', assigned_object_id: eth0.id });
    await f.ipAddress({ address: '2001:db8::10/64', assigned_object_type: 'dcim.interface', assigned_object_id: eth0.id });
    // Another device's address, and a device of another role: neither is edge1's.
    const other = await f.device({ name: 'edge2' });
    edge2 = other;
    await f.ipAddress({
      address: '192.0.2.11/24',
      assigned_object_type: 'dcim.interface',
      assigned_object_id: (await f.interface({ device: other.id })).id,
    });
    const tag = await platform.post('/api/extras/tags/', { name: 'Enroll', slug: 'enroll' });
    expect(tag.status).toBe(201);
    core1 = await f.device({ name: 'core1', tags: [{ slug: 'enroll' }] });
    const made = await api.post('/service-accounts/', { name: 'enroller', can_create_cert: true }, admin);
    expect(made.status).toBe(201);
    account = made.body;
    const policy = await api.put(
      `/service-accounts/${account.id}/policy`,
      {
        allowed_certificate_types: ['server'],
        allowed_ca_ids: [ca.id],
        max_validity_days: 90,
        bound_device_roles: [edgeRole.slug.toUpperCase()],
        bound_device_tags: ['enroll'],
      },
      admin,
    );
    expect(policy.status).toBe(200);
    expect(policy.body).toMatchObject({ bound_device_ids: [], bound_device_tags: ['enroll'], bound_device_roles: [edgeRole.slug] });
    token = (await api.post(`/service-accounts/${account.id}/tokens`, { name: 'device' }, admin)).body.token;
  });

  afterAll(async () => {
    ssl?.dispose();
    await seeded?.testApp.close();
  });

  const sh = (script: string) => ssl.shell(script);

  /** A new P-256 key and a CSR from `openssl req` (`<name>.csr` PEM, `<name>.b64` base64 DER for EST). */
  async function csr(name: string, commonName: string, sans: string): Promise<string> {
    const made = await sh(
      `openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout ${name}.key -subj '/CN=${commonName}' ` +
        `-addext 'subjectAltName=${sans}' -out ${name}.csr && openssl req -in ${name}.csr -outform DER | openssl base64 -out ${name}.b64`,
    );
    expect(made).toMatchObject({ status: 0 });
    return readFileSync(join(ssl.dir, `${name}.csr`), 'utf8');
  }

  const signCsr = (pem: string) =>
    api.post('/certificates/sign-csr', { csr: pem, ca_id: ca.id, certificate_type: 'server', valid_days: 30 }, token);

  /** EST simpleenroll with curl (Basic: the service account's name and token); the status, and the body in `<name>.out`. */
  async function simpleenroll(name: string): Promise<{ status: number; body: string }> {
    const url = `${seeded.testApp.baseUrl}/.well-known/est/${ca.slug}/simpleenroll`;
    const run = await sh(
      `curl -sS -o ${name}.out -w '%{http_code}' -u '${account.name}:${token}' -H 'Content-Type: application/pkcs10' --data-binary @${name}.b64 '${url}'`,
    );
    expect(run.output).toMatch(/^\d{3}$/);
    return { status: Number(run.output), body: readFileSync(join(ssl.dir, `${name}.out`), 'utf8') };
  }

  const certificatesOf = async (device: any) => (await platform.get(`/api/dcim/devices/${device.id}/`)).body.certificates as any[];

  it("signs a CSR for the device's suffixed name and interface addresses, linked to the device (REST and GraphQL)", async () => {
    const signed = await signCsr(await csr('edge1', `edge1.${SUFFIX}`, `DNS:Edge1.${SUFFIX},IP:192.0.2.10,IP:2001:db8:0:0::10`));
    expect(signed.status).toBe(201);
    expect(signed.body).toMatchObject({ san_dns_names: [`edge1.${SUFFIX}`], san_ip_addresses: ['192.0.2.10', '2001:db8::10'] });
    expect(await certificatesOf(edge1)).toEqual([
      {
        id: signed.body.id,
        serial_number: signed.body.serial_number,
        common_name: `edge1.${SUFFIX}`,
        status: 'valid',
        not_after: new Date(signed.body.not_after).toISOString(),
        issuer_id: ca.id,
      },
    ]);
    const graphql = await platform.post('/graphql/', {
      query: `{ device(id: ${edge1.id}) { name certificates } other: device(id: ${edge2.id}) { certificates } }`,
    });
    expect(graphql.body.errors).toBeUndefined();
    expect(graphql.body.data.device.certificates).toEqual([expect.objectContaining({ id: signed.body.id, status: 'valid' })]);
    expect(graphql.body.data.other.certificates).toEqual([]);
  });

  it('refuses with a 4xx naming the first name the inventory does not give a bound device', async () => {
    const refused = async (name: string, commonName: string, sans: string, field: string, value: string) => {
      const response = await signCsr(await csr(name, commonName, sans));
      expect({ status: response.status, detail: response.body.detail }).toEqual({
        status: 400,
        detail: { code: 'not_in_inventory', field, value, message: expect.stringContaining(JSON.stringify(value)) },
      });
    };
    await refused('www', `edge1.${SUFFIX}`, `DNS:edge1.${SUFFIX},DNS:www.example.com`, 'san_dns_names', 'www.example.com');
    // edge2's address, not edge1's.
    await refused('neighbour', `edge1.${SUFFIX}`, `DNS:edge1.${SUFFIX},IP:192.0.2.11`, 'san_ip_addresses', '192.0.2.11');
    // edge2 is in the inventory, but not of the bound role; edge1 without the DNS suffix is not its name.
    await refused('unbound', `edge2.${SUFFIX}`, `DNS:edge2.${SUFFIX}`, 'common_name', `edge2.${SUFFIX}`);
    await refused('bare', 'edge1', 'DNS:edge1', 'common_name', 'edge1');
    expect(await certificatesOf(edge2)).toEqual([]);
  });

  it('enrolls a device bound by tag over EST (curl + openssl), and refuses a name it does not have with 403', async () => {
    await csr('core1', `core1.${SUFFIX}`, `DNS:core1.${SUFFIX}`);
    const enrolled = await simpleenroll('core1');
    expect(enrolled.status).toBe(200);
    const read = await sh('openssl base64 -d -in core1.out | openssl pkcs7 -inform DER -print_certs -out core1.pem');
    expect(read).toMatchObject({ status: 0 });
    expect((await sh('openssl verify -CAfile ca.pem core1.pem')).output).toBe('core1.pem: OK\n');
    const serial = (await sh('openssl x509 -in core1.pem -noout -serial')).output.trim().replace(/^serial=/, '');
    // Compared as numbers: openssl pads the hex to whole bytes.
    expect((await certificatesOf(core1)).map((certificate) => BigInt(`0x${certificate.serial_number}`))).toEqual([BigInt(`0x${serial}`)]);

    await csr('core1-extra', `core1.${SUFFIX}`, `DNS:core1.${SUFFIX},DNS:mail.example.com`);
    const refused = await simpleenroll('core1-extra');
    expect(refused.status).toBe(403);
    expect(refused.body).toContain('mail.example.com');
  });

  it('revokes the certificates of a device set to decommissioning (cessationOfOperation, as OCSP answers), and refuses it more', async () => {
    const before = await certificatesOf(edge1);
    expect(before).toHaveLength(1);
    ssl.write('edge1.pem', (await api.get(`/certificates/${before[0].id}`, admin)).body.certificate);
    const ocsp = () =>
      ssl.runAsync(
        'ocsp',
        '-issuer',
        'ca.pem',
        '-CAfile',
        'ca.pem',
        '-cert',
        'edge1.pem',
        '-url',
        `${seeded.testApp.baseUrl}/ocsp/${ca.slug}`,
      );
    expect((await ocsp()).output).toMatch(/edge1\.pem: good/);

    expect((await platform.patch(`/api/dcim/devices/${edge1.id}/`, { status: 'decommissioning' })).status).toBe(200);
    expect(await api.get(`/certificates/${before[0].id}`, admin)).toMatchObject({
      status: 200,
      body: { status: 'revoked', revocation_reason: 'cessationOfOperation' },
    });
    expect((await certificatesOf(edge1)).map((certificate) => certificate.status)).toEqual(['revoked']);
    const answer = (await ocsp()).output;
    expect(answer).toMatch(/edge1\.pem: revoked/);
    expect(answer).toMatch(/Reason: cessationOfOperation/);
    const audit = await api.get(`/audit-logs/?resource_type=certificate&resource_id=${before[0].id}&action=cert_revoke`, admin);
    expect(audit.status).toBe(200);
    expect(JSON.stringify(audit.body)).toContain(`device #${edge1.id} decommissioned`);

    // Being decommissioned, it is no longer bound.
    const again = await signCsr(await csr('edge1-again', `edge1.${SUFFIX}`, `DNS:edge1.${SUFFIX}`));
    expect(again.status).toBe(400);
    expect(again.body.detail).toMatchObject({ code: 'not_in_inventory', field: 'common_name' });
  });

  it("revokes a deleted device's certificates, as the CA's CRL then lists", async () => {
    const [issued] = await certificatesOf(core1);
    expect((await platform.delete(`/api/dcim/devices/${core1.id}/`)).status).toBe(204);
    expect((await api.get(`/certificates/${issued.id}`, admin)).body).toMatchObject({
      status: 'revoked',
      revocation_reason: 'cessationOfOperation',
    });
    const fetched = await sh(
      `curl -sS -f -o ca.crl '${seeded.testApp.baseUrl}/crl/${ca.slug}' && openssl crl -inform DER -in ca.crl -noout -text`,
    );
    expect(fetched.status).toBe(0);
    const entry = new RegExp(
      `Serial Number: 0*${issued.serial_number}\\s+Revocation Date: [^\\n]+\\s+CRL entry extensions:\\s+X509v3 CRL Reason Code:\\s+Cessation Of Operation`,
      'i',
    );
    expect(fetched.output).toMatch(entry);
  });
});
