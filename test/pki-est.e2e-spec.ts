import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { OpensslPki, OpensslWorkspace, startOpensslPki } from './support/openssl';
import type { ApiClient, Fixture } from './support/api-client';

const CERTS_ONLY = 'application/pkcs7-mime; smime-type=certs-only';
const CLIENT_CERT_HEADER = 'X-SSL-Client-Cert';

interface CurlAnswer {
  status: number;
  headers: Record<string, string>;
  /** The response body, as curl wrote it to `<name>.out`. */
  body: string;
}

/**
 * EST (RFC 7030) driven as its RFC describes and as a shell client does it: keys and CSRs from
 * `openssl req`, the base64 from `openssl base64`, requests by `curl`, answers read back with
 * `openssl base64 -d | openssl pkcs7 -print_certs` and checked with `openssl verify`.
 */
describe('EST checked with curl and openssl', () => {
  let pki: OpensslPki;
  let api: ApiClient;
  let root: Fixture;
  let ssl: OpensslWorkspace;
  let ca: any;
  let account: any;
  let token: string;
  let base: string;

  beforeAll(async () => {
    // The test app is reached from 127.0.0.1: the trusted ingress. Requests bound to 127.0.0.2 play an untrusted peer.
    pki = await startOpensslPki({ EST_CLIENT_CERT_HEADER: CLIENT_CERT_HEADER, EST_TRUSTED_PROXIES: '127.0.0.1' });
    ({ api, root, ssl } = pki);
    const organization = await api.post('/organizations/', { name: 'EST Devices' }, root.token);
    expect(organization.status).toBe(201);
    const rootCa = await pki.createCa({ name: 'EST Root', subject_dn: 'CN=EST Root,O=Test' });
    ca = await pki.createCa({ name: 'EST Issuing', subject_dn: 'CN=EST Issuing,O=Test', parent_ca_id: rootCa.id, valid_days: 1000 });
    for (const id of [rootCa.id, ca.id]) {
      expect((await api.patch(`/cas/${id}`, { organization_id: organization.body.id }, root.token)).status).toBe(200);
    }
    const created = await api.post(
      '/service-accounts/',
      { name: 'Routers', organization_id: organization.body.id, can_create_cert: true },
      root.token,
    );
    expect(created.status).toBe(201);
    account = created.body;
    token = (await api.post(`/service-accounts/${account.id}/tokens`, { name: 'est' }, root.token)).body.token;
    const policy = await api.put(
      `/service-accounts/${account.id}/policy`,
      {
        cn_patterns: ['*.net.example'],
        san_dns_patterns: ['*.net.example'],
        san_ip_cidrs: ['192.0.2.0/24'],
        san_email_domains: [],
        allowed_ca_ids: [ca.id],
        allowed_certificate_types: ['server', 'dual_purpose'],
        max_validity_days: 90,
      },
      root.token,
    );
    expect(policy.status).toBe(200);
    ssl.write('root.pem', rootCa.certificate);
    ssl.write('issuer.pem', ca.certificate);
    base = `${pki.testApp.baseUrl}/.well-known/est/${ca.slug}`;
  });

  afterAll(() => pki?.close());

  const sh = (script: string) => ssl.shell(script);

  /** curl with the given arguments; the body goes to `<name>.out`, the headers are parsed. */
  async function curl(name: string, ...args: string[]): Promise<CurlAnswer> {
    const quoted = args.map((arg) => `'${arg.replace(/'/g, `'\\''`)}'`).join(' ');
    const run = await sh(`curl -sS -o ${name}.out -D ${name}.headers -w '%{http_code}' ${quoted}`);
    expect(run.output).toMatch(/^\d{3}$/);
    const headers: Record<string, string> = {};
    for (const line of readFileSync(join(ssl.dir, `${name}.headers`), 'utf8')
      .split('\r\n')
      .slice(1)) {
      const colon = line.indexOf(':');
      if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
    }
    return { status: Number(run.output), headers, body: readFileSync(join(ssl.dir, `${name}.out`), 'utf8') };
  }

  /** A new key and a CSR for it, DER then base64 with `openssl base64`, as `<name>.b64`. */
  async function csr(name: string, subject: string, sans?: string): Promise<void> {
    const extension = sans ? `-addext 'subjectAltName=${sans}'` : '';
    const made = await sh(
      `openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout ${name}.key -subj '${subject}' ${extension} ` +
        `-outform DER -out ${name}.der && openssl base64 -in ${name}.der -out ${name}.b64`,
    );
    expect(made).toMatchObject({ status: 0 });
  }

  const basic = (user = account.name, password = token) => ['-u', `${user}:${password}`];
  const pkcs10 = (name: string) => ['-H', 'Content-Type: application/pkcs10', '--data-binary', `@${name}.b64`];

  /** The certificates of a certs-only answer, as `<name>.pem`, through openssl base64 -d | openssl pkcs7. */
  async function printCerts(name: string): Promise<string> {
    const read = await sh(`openssl base64 -d -in ${name}.out | openssl pkcs7 -inform DER -print_certs -out ${name}.pem`);
    expect(read).toMatchObject({ status: 0 });
    return readFileSync(join(ssl.dir, `${name}.pem`), 'utf8');
  }

  async function verify(name: string): Promise<string> {
    return (await sh(`openssl verify -CAfile root.pem -untrusted issuer.pem ${name}.pem`)).output;
  }

  /** The SHA-256 of a key's public half, from a private key or from a certificate. */
  async function publicKeyOf(command: string): Promise<string> {
    const run = await sh(`${command} | openssl pkey -pubin -outform DER | openssl dgst -sha256 -r`);
    expect(run.status).toBe(0);
    return run.output.split(' ')[0];
  }

  async function enroll(name: string, subject: string, sans: string): Promise<any> {
    await csr(name, subject, sans);
    const answer = await curl(name, ...basic(), ...pkcs10(name), `${base}/simpleenroll`);
    expect(answer.status).toBe(200);
    await printCerts(name);
    const serial = (await sh(`openssl x509 -in ${name}.pem -noout -serial`)).output.trim().replace('serial=', '');
    return (await api.get(`/certificates/by-serial/${serial}`, root.token)).body;
  }

  it('serves cacerts: the issuing CA and its root as certs-only PKCS#7, base64, without authentication', async () => {
    const answer = await curl('cacerts', `${base}/cacerts`);
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe(CERTS_ONLY);
    expect(answer.headers['content-transfer-encoding']).toBe('base64');
    const pem = await printCerts('cacerts');
    expect(pem).toContain('subject=O = Test, CN = EST Issuing');
    expect(pem).toContain('subject=O = Test, CN = EST Root');
    expect((await curl('nocacerts', `${pki.testApp.baseUrl}/.well-known/est/no-such-ca-999/cacerts`)).status).toBe(404);
  });

  it('serves csrattrs: the signature algorithm CSRs should use, as application/csrattrs', async () => {
    const answer = await curl('csrattrs', `${base}/csrattrs`);
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('application/csrattrs');
    const parsed = await sh('openssl base64 -d -in csrattrs.out | openssl asn1parse -inform DER');
    expect(parsed.output).toMatch(/SEQUENCE[\s\S]*OBJECT\s+:sha256WithRSAEncryption/);
  });

  it('enrolls a CSR with Basic credentials: a certificate for the CSR key that verifies, issued and audited as the service account', async () => {
    await csr('router1', '/CN=router1.net.example', 'DNS:router1.net.example,IP:192.0.2.1');
    const answer = await curl('router1', ...basic(), ...pkcs10('router1'), `${base}/simpleenroll`);
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe(CERTS_ONLY);
    expect(answer.headers['content-transfer-encoding']).toBe('base64');
    const pem = await printCerts('router1');
    expect(pem.match(/BEGIN CERTIFICATE/g)).toHaveLength(1);
    expect(await verify('router1')).toContain('router1.pem: OK');
    expect(await publicKeyOf('openssl x509 -in router1.pem -noout -pubkey')).toBe(
      await publicKeyOf('openssl pkey -in router1.key -pubout'),
    );
    const text = (await sh('openssl x509 -in router1.pem -noout -text')).output;
    expect(text).toContain('DNS:router1.net.example, IP Address:192.0.2.1');
    expect(text).toContain('TLS Web Server Authentication, TLS Web Client Authentication');
    const serial = (await sh('openssl x509 -in router1.pem -noout -serial')).output.trim().replace('serial=', '');
    const stored = (await api.get(`/certificates/by-serial/${serial}`, root.token)).body;
    // The type is the first of the policy's types the CSR fits, the validity the policy's maximum (below CERT_DAYS).
    expect(stored).toMatchObject({ certificate_type: 'dual_purpose', valid_days: 90, common_name: 'router1.net.example' });
    const audit = await api.get('/audit-logs/?limit=100', root.token);
    expect(audit.body).toContainEqual(
      expect.objectContaining({
        action: 'cert_create',
        resource_id: stored.id,
        service_account_id: account.id,
        service_account_name: 'Routers',
        user_id: null,
      }),
    );
  });

  it('accepts the account id as username, and refuses missing or wrong credentials with 401 and a Basic challenge', async () => {
    await csr('byid', '/CN=byid.net.example');
    expect((await curl('byid', ...basic(String(account.id)), ...pkcs10('byid'), `${base}/simpleenroll`)).status).toBe(200);
    const refusals = [
      await curl('anon', ...pkcs10('byid'), `${base}/simpleenroll`),
      await curl('wrongtoken', ...basic(account.name, `${token.slice(0, -4)}AAAA`), ...pkcs10('byid'), `${base}/simpleenroll`),
      await curl('wronguser', ...basic('someone-else'), ...pkcs10('byid'), `${base}/simpleenroll`),
      await curl('bearer', '-H', `Authorization: Bearer ${token}`, ...pkcs10('byid'), `${base}/serverkeygen`),
    ];
    for (const refusal of refusals) {
      expect(refusal.status).toBe(401);
      expect(refusal.headers['www-authenticate']).toBe('Basic realm="EST", charset="UTF-8"');
    }
  });

  it('refuses what the issuance policy does not allow with 403 and the reason', async () => {
    await csr('outside', '/CN=www.elsewhere.example');
    const answer = await curl('outside', ...basic(), ...pkcs10('outside'), `${base}/simpleenroll`);
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body)).toEqual({
      detail: {
        code: 'policy_violation',
        field: 'cn_patterns',
        value: 'www.elsewhere.example',
        message: 'The issuance policy does not allow cn_patterns: www.elsewhere.example',
      },
    });
  });

  it('answers 400 naming the problem for a body that is not a base64 PKCS#10 request', async () => {
    ssl.write('notb64.b64', 'this is not base64!');
    const notBase64 = await curl('notb64', ...basic(), ...pkcs10('notb64'), `${base}/simpleenroll`);
    expect(notBase64.status).toBe(400);
    expect(JSON.parse(notBase64.body).detail).toMatchObject({ code: 'csr_not_base64' });
    ssl.write('notcsr.b64', Buffer.from('a DER certification request it is not').toString('base64'));
    const notCsr = await curl('notcsr', ...basic(), ...pkcs10('notcsr'), `${base}/simpleenroll`);
    expect(notCsr.status).toBe(400);
    expect(JSON.parse(notCsr.body).detail).toMatch(/^csr: Invalid CSR: not a PKCS#10 certification request/);
    const noBody = await curl('nobody', ...basic(), '-X', 'POST', `${base}/simpleenroll`);
    expect(noBody.status).toBe(400);
    expect(JSON.parse(noBody.body).detail).toMatchObject({ code: 'csr_required' });
  });

  it('re-enrolls with the client certificate the trusted ingress forwards: a successor for the new key, same names', async () => {
    const current = await enroll('device', '/CN=device.net.example', 'DNS:device.net.example');
    const forwarded = encodeURIComponent(readFileSync(join(ssl.dir, 'device.pem'), 'utf8'));
    await csr('device2', '/CN=device.net.example', 'DNS:device.net.example');
    const answer = await curl('device2', '-H', `${CLIENT_CERT_HEADER}: ${forwarded}`, ...pkcs10('device2'), `${base}/simplereenroll`);
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe(CERTS_ONLY);
    await printCerts('device2');
    expect(await verify('device2')).toContain('device2.pem: OK');
    expect(await publicKeyOf('openssl x509 -in device2.pem -noout -pubkey')).toBe(
      await publicKeyOf('openssl pkey -in device2.key -pubout'),
    );
    const serial = (await sh('openssl x509 -in device2.pem -noout -serial')).output.trim().replace('serial=', '');
    const successor = (await api.get(`/certificates/by-serial/${serial}`, root.token)).body;
    expect(successor).toMatchObject({
      renewed_from_id: current.id,
      common_name: 'device.net.example',
      san_dns_names: ['device.net.example'],
    });

    // RFC 7030 §4.2.2: the subject and SANs must be the certificate's.
    await csr('renamed', '/CN=other.net.example');
    const renamed = await curl('renamed', '-H', `${CLIENT_CERT_HEADER}: ${forwarded}`, ...pkcs10('renamed'), `${base}/simplereenroll`);
    expect(renamed.status).toBe(400);
    expect(JSON.parse(renamed.body).detail).toMatchObject({ code: 'reenroll_subject_differs' });
    await csr('moresans', '/CN=device.net.example', 'DNS:device.net.example,DNS:extra.net.example');
    const moreSans = await curl('moresans', '-H', `${CLIENT_CERT_HEADER}: ${forwarded}`, ...pkcs10('moresans'), `${base}/simplereenroll`);
    expect(moreSans.status).toBe(400);
    expect(JSON.parse(moreSans.body).detail).toMatchObject({ code: 'reenroll_sans_differ' });
  });

  it('re-enrolls with Basic credentials alone: the newest valid certificate with the CSR subject', async () => {
    const current = await enroll('basicre', '/CN=basicre.net.example', 'DNS:basicre.net.example');
    await csr('basicre2', '/CN=basicre.net.example', 'DNS:basicre.net.example');
    const answer = await curl('basicre2', ...basic(), ...pkcs10('basicre2'), `${base}/simplereenroll`);
    expect(answer.status).toBe(200);
    await printCerts('basicre2');
    const serial = (await sh('openssl x509 -in basicre2.pem -noout -serial')).output.trim().replace('serial=', '');
    expect((await api.get(`/certificates/by-serial/${serial}`, root.token)).body).toMatchObject({ renewed_from_id: current.id });
    await csr('unknownre', '/CN=never.net.example');
    const unknown = await curl('unknownre', ...basic(), ...pkcs10('unknownre'), `${base}/simplereenroll`);
    expect(unknown.status).toBe(400);
    expect(JSON.parse(unknown.body).detail).toMatchObject({ code: 'no_certificate_to_reenroll' });
  });

  it('refuses re-enrollment with a revoked certificate', async () => {
    const current = await enroll('revoked', '/CN=revoked.net.example', 'DNS:revoked.net.example');
    expect((await api.post(`/certificates/${current.id}/revoke`, { reason: 'key_compromise' }, root.token)).status).toBe(200);
    const forwarded = encodeURIComponent(readFileSync(join(ssl.dir, 'revoked.pem'), 'utf8'));
    await csr('revoked2', '/CN=revoked.net.example', 'DNS:revoked.net.example');
    const answer = await curl('revoked2', '-H', `${CLIENT_CERT_HEADER}: ${forwarded}`, ...pkcs10('revoked2'), `${base}/simplereenroll`);
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body).detail).toMatchObject({ code: 'certificate_revoked' });
  });

  it('ignores the client-certificate header from a peer that is not a trusted proxy, and refuses certificates it did not issue', async () => {
    await enroll('spoofed', '/CN=spoofed.net.example', 'DNS:spoofed.net.example');
    const forwarded = encodeURIComponent(readFileSync(join(ssl.dir, 'spoofed.pem'), 'utf8'));
    await csr('spoofed2', '/CN=spoofed.net.example', 'DNS:spoofed.net.example');
    const untrusted = await curl(
      'untrusted',
      '--interface',
      '127.0.0.2',
      '-H',
      `${CLIENT_CERT_HEADER}: ${forwarded}`,
      ...pkcs10('spoofed2'),
      `${base}/simplereenroll`,
    );
    expect(untrusted.status).toBe(401);
    expect(untrusted.headers['www-authenticate']).toBe('Basic realm="EST", charset="UTF-8"');
    // A self-signed certificate with the same subject, forwarded by the trusted ingress, is not one this CA issued.
    const selfSigned = await sh("openssl req -x509 -new -key spoofed2.key -subj '/CN=spoofed.net.example' -days 1 -out forged.pem");
    expect(selfSigned.status).toBe(0);
    const forged = encodeURIComponent(readFileSync(join(ssl.dir, 'forged.pem'), 'utf8'));
    const notOurs = await curl('forged', '-H', `${CLIENT_CERT_HEADER}: ${forged}`, ...pkcs10('spoofed2'), `${base}/simplereenroll`);
    expect(notOurs.status).toBe(401);
  });

  it('generates the key on serverkeygen: multipart with the PKCS#8 key and the certificate, which match and verify', async () => {
    await csr('keygen', '/CN=keygen.net.example', 'DNS:keygen.net.example');
    const answer = await curl('keygen', ...basic(), ...pkcs10('keygen'), `${base}/serverkeygen`);
    expect(answer.status).toBe(200);
    const boundary = /^multipart\/mixed; boundary=(est-[0-9a-f]+)$/.exec(answer.headers['content-type'])?.[1];
    expect(boundary).toBeDefined();
    const parts = answer.body.split(`--${boundary}`).slice(1, -1);
    expect(answer.body.endsWith(`--${boundary}--\r\n`)).toBe(true);
    expect(parts).toHaveLength(2);
    const [keyPart, certPart] = parts.map((part) => {
      const [head, body] = part.split('\r\n\r\n');
      return { head: head.trim(), body };
    });
    expect(keyPart.head).toBe('Content-Type: application/pkcs8\r\nContent-Transfer-Encoding: base64');
    expect(certPart.head).toBe(`Content-Type: ${CERTS_ONLY}\r\nContent-Transfer-Encoding: base64`);
    ssl.write('keygen-key.b64', keyPart.body);
    ssl.write('keygen-cert.out', certPart.body);
    const key = await sh(
      'openssl base64 -d -in keygen-key.b64 | openssl pkey -inform DER -out keygen-server.key && openssl pkey -in keygen-server.key -noout -text',
    );
    expect(key.output).toContain('ASN1 OID: prime256v1');
    await printCerts('keygen-cert');
    expect(await verify('keygen-cert')).toContain('keygen-cert.pem: OK');
    const certificateKey = await publicKeyOf('openssl x509 -in keygen-cert.pem -noout -pubkey');
    expect(certificateKey).toBe(await publicKeyOf('openssl pkey -in keygen-server.key -pubout'));
    expect(certificateKey).not.toBe(await publicKeyOf('openssl pkey -in keygen.key -pubout'));
    const serial = (await sh('openssl x509 -in keygen-cert.pem -noout -serial')).output.trim().replace('serial=', '');
    const stored = (await api.get(`/certificates/by-serial/${serial}`, root.token)).body;
    // Returned once, never kept.
    expect((await api.get(`/certificates/${stored.id}/private-key`, root.token)).body).toMatchObject({ private_key: null });
  });
  it('refuses a serverkeygen request that asks for the key encrypted, rather than answer it in clear', async () => {
    // openssl writes the attribute's value as a string; only its type (AsymmetricDecryptKeyIdentifier) matters here.
    ssl.write(
      'encrypted.cnf',
      '[req]\ndistinguished_name = dn\nattributes = attrs\nprompt = no\n[dn]\nCN = encrypted.net.example\n' +
        '[attrs]\n1.2.840.113549.1.9.16.2.54 = 0123456789abcdef\n',
    );
    const made = await sh(
      'openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout encrypted.key -config encrypted.cnf ' +
        '-outform DER -out encrypted.der && openssl base64 -in encrypted.der -out encrypted.b64',
    );
    expect(made.status).toBe(0);
    const answer = await curl('encrypted', ...basic(), ...pkcs10('encrypted'), `${base}/serverkeygen`);
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body).detail).toMatchObject({
      code: 'encrypted_key_not_supported',
      message: expect.stringContaining('AsymmetricDecryptKeyIdentifier'),
    });
  });
});
