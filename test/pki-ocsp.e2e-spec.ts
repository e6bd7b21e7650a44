import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { Client } from 'pg';
import { ApiClient, Fixture } from './support/api-client';
import { OpensslPki, OpensslWorkspace, startOpensslPki } from './support/openssl';
import type { TestApp } from './support/test-app';

/** The OCSP responder, asked by `openssl ocsp` (RFC 6960, RFC 5019 GET, RFC 8954 nonce). */
describe('OCSP responder checked with openssl ocsp', () => {
  let pki: OpensslPki;
  let testApp: TestApp;
  let api: ApiClient;
  let root: Fixture;
  let ssl: OpensslWorkspace;
  let rootCa: any;
  let ca: any;
  let good: any;
  let revoked: any;
  let url: string;

  beforeAll(async () => {
    pki = await startOpensslPki();
    ({ testApp, api, root, ssl } = pki);
    rootCa = await pki.createCa({ name: 'OCSP Root', subject_dn: 'CN=OCSP Root,O=Test,C=US' });
    ca = await pki.createCa({ name: 'OCSP Issuing', subject_dn: 'CN=OCSP Issuing,O=Test,C=US', parent_ca_id: rootCa.id, valid_days: 1000 });
    good = await pki.issue(ca.id, { common_name: 'good.example.com', certificate_type: 'server', subject_dn: 'O=Test,C=US' });
    revoked = await pki.issue(ca.id, { common_name: 'revoked.example.com', certificate_type: 'server', subject_dn: 'O=Test,C=US' });
    expect((await api.post(`/certificates/${revoked.id}/revoke`, { reason: 'key_compromise' }, root.token)).status).toBe(200);
    ssl.write('root.pem', rootCa.certificate);
    ssl.write('issuer.pem', ca.certificate);
    ssl.write('chain.pem', `${ca.certificate}${rootCa.certificate}`);
    ssl.write('good.pem', good.certificate);
    ssl.write('revoked.pem', revoked.certificate);
    url = `${testApp.baseUrl}/ocsp/${ca.slug}`;
  });

  afterAll(() => pki.close());

  const ask = (...args: string[]) => ssl.runAsync('ocsp', '-issuer', 'issuer.pem', '-CAfile', 'root.pem', '-url', url, ...args);

  it('writes the OCSP and CA issuers URLs into AIA and the CRL distribution point', () => {
    const text = ssl.run('x509', '-in', 'good.pem', '-noout', '-text').output;
    expect(text).toMatch(
      new RegExp(
        `Authority Information Access:\\s+OCSP - URI:http://pki.test/ocsp/${ca.slug}\\s+CA Issuers - URI:http://pki.test/ca/${ca.slug}.crt`,
      ),
    );
    expect(text).toContain(`URI:http://pki.test/crl/${ca.slug}`);
    expect(ssl.run('x509', '-in', 'good.pem', '-noout', '-ocsp_uri').output).toBe(`http://pki.test/ocsp/${ca.slug}\n`);
  });

  it("writes a CA's own public_base_url instead of PUBLIC_BASE_URL", async () => {
    const own = await pki.createCa({ name: 'OCSP Own URL', subject_dn: 'CN=OCSP Own URL', public_base_url: 'https://ocsp.example.net/' });
    expect(own).toMatchObject({ public_base_url: 'https://ocsp.example.net', ocsp_url: `https://ocsp.example.net/ocsp/${own.slug}` });
    const leaf = await pki.issue(own.id, { common_name: 'own.example.com', certificate_type: 'server', subject_dn: 'O=Test,C=US' });
    ssl.write('own.pem', leaf.certificate);
    const text = ssl.run('x509', '-in', 'own.pem', '-noout', '-text').output;
    expect(text).toContain(`OCSP - URI:https://ocsp.example.net/ocsp/${own.slug}`);
    expect(text).toContain(`CA Issuers - URI:https://ocsp.example.net/ca/${own.slug}.crt`);
    expect(text).toContain(`URI:https://ocsp.example.net/crl/${own.slug}`);
    expect((await api.post('/cas/', { name: 'Bad URL', subject_dn: 'CN=Bad', public_base_url: 'ftp://x' }, root.token)).status).toBe(400);
  });

  it('answers good, with the nonce openssl sends echoed and the signature verified against the CA', async () => {
    const answer = await ask('-cert', 'good.pem', '-resp_text');
    expect(answer.status).toBe(0);
    expect(answer.output).toContain('Response verify OK');
    expect(answer.output).toContain('good.pem: good');
    expect(answer.output).toMatch(/OCSP Nonce:/);
    expect(answer.output).not.toContain('WARNING');
    expect(answer.output).toMatch(/Next Update: /);
  });

  it('answers revoked with the revocation time and reason', async () => {
    const answer = await ask('-cert', 'revoked.pem', '-no_nonce');
    expect(answer.status).toBe(0);
    expect(answer.output).toContain('Response verify OK');
    expect(answer.output).toMatch(
      /revoked.pem: revoked\n\s+This Update: .+\n\s+Next Update: .+\n\s+Reason: keyCompromise\n\s+Revocation Time: /,
    );
  });

  it('answers unknown for a serial the CA never issued, also with SHA-256 CertIDs', async () => {
    const answer = await ask('-serial', '0x1234567890abcdef', '-no_nonce');
    expect(answer.output).toContain('0x1234567890abcdef: unknown');
    expect(answer.output).toContain('Response verify OK');
    const sha256 = await ask('-sha256', '-cert', 'good.pem', '-no_nonce');
    expect(sha256.output).toContain('good.pem: good');
  });

  it('serves the same pre-signed response until a revocation, then the revoked one', async () => {
    const post = async (request: Buffer) => {
      const response = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/ocsp-request' }, body: request });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/ocsp-response');
      return { der: Buffer.from(await response.arrayBuffer()), cacheControl: response.headers.get('cache-control') };
    };
    const later = await pki.issue(ca.id, { common_name: 'later.example.com', certificate_type: 'server', subject_dn: 'O=Test,C=US' });
    ssl.write('later.pem', later.certificate);
    expect(ssl.run('ocsp', '-issuer', 'issuer.pem', '-cert', 'later.pem', '-no_nonce', '-reqout', 'later.req').status).toBe(0);
    const request = readFileSync(join(ssl.dir, 'later.req'));
    const first = await post(request);
    const second = await post(request);
    expect(second.der.equals(first.der)).toBe(true);
    expect(first.cacheControl).toMatch(/^public, max-age=\d+/);
    expect((await api.post(`/certificates/${later.id}/revoke`, { reason: 'superseded' }, root.token)).status).toBe(200);
    const third = await post(request);
    ssl.write('later.resp', third.der);
    const read = ssl.run('ocsp', '-respin', 'later.resp', '-issuer', 'issuer.pem', '-CAfile', 'root.pem', '-cert', 'later.pem');
    expect(read.output).toMatch(/later.pem: revoked[\s\S]*Reason: superseded/);
  });

  it('answers GET requests (RFC 5019), the request base64 and URL-encoded in the path', async () => {
    expect(ssl.run('ocsp', '-issuer', 'issuer.pem', '-cert', 'good.pem', '-no_nonce', '-reqout', 'good.req').status).toBe(0);
    const base64 = readFileSync(join(ssl.dir, 'good.req')).toString('base64');
    const response = await fetch(`${url}/${encodeURIComponent(base64)}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/ocsp-response');
    ssl.write('get.resp', Buffer.from(await response.arrayBuffer()));
    const read = ssl.run('ocsp', '-respin', 'get.resp', '-issuer', 'issuer.pem', '-CAfile', 'root.pem', '-cert', 'good.pem');
    expect(read.output).toContain('Response verify OK');
    expect(read.output).toContain('good.pem: good');
  });

  it('sends a cached answer before the HTTP pipeline, the same bytes the pipeline signed, for POST and GET', async () => {
    const cached = await pki.issue(ca.id, { common_name: 'cached.example.com', certificate_type: 'server', subject_dn: 'O=Test,C=US' });
    ssl.write('cached.pem', cached.certificate);
    expect(ssl.run('ocsp', '-issuer', 'issuer.pem', '-cert', 'cached.pem', '-no_nonce', '-reqout', 'cached.req').status).toBe(0);
    const request = readFileSync(join(ssl.dir, 'cached.req'));
    const post = () => fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/ocsp-request' }, body: request });
    const signed = await post();
    // The first answer is signed through the pipeline (its access log gives every answer a request id)…
    expect(signed.headers.get('x-request-id')).not.toBeNull();
    const der = Buffer.from(await signed.arrayBuffer());
    for (const response of [await post(), await fetch(`${url}/${encodeURIComponent(request.toString('base64'))}`)]) {
      // …the next ones come from the cache, before it, with the same headers an HTTP cache needs.
      expect(response.status).toBe(200);
      expect(response.headers.get('x-request-id')).toBeNull();
      expect(response.headers.get('content-type')).toBe('application/ocsp-response');
      expect(response.headers.get('cache-control')).toMatch(/^public, max-age=\d+, no-transform, must-revalidate$/);
      expect(response.headers.get('expires')).toMatch(/GMT$/);
      expect(Buffer.from(await response.arrayBuffer()).equals(der)).toBe(true);
    }
    // A nonce is never answered from the cache.
    const nonce = await ask('-cert', 'cached.pem', '-resp_text');
    expect(nonce.output).toMatch(/OCSP Nonce:/);
    expect(nonce.output).toContain('cached.pem: good');
  });

  it('is stapled by a TLS server (openssl s_server -status_file) and read back by openssl s_client -status', async () => {
    const staple = await pki.issue(ca.id, { common_name: '127.0.0.1', certificate_type: 'server', subject_dn: 'O=Test,C=US' });
    ssl.write('staple.pem', `${staple.certificate}${ca.certificate}`);
    ssl.write('staple.key', staple.private_key);
    const fetched = await ask('-cert', 'staple.pem', '-no_nonce', '-respout', 'staple.resp');
    expect(fetched.output).toContain('staple.pem: good');
    const port = await freePort();
    const server = spawn(
      'openssl',
      [
        's_server',
        '-accept',
        `127.0.0.1:${port}`,
        '-cert',
        'staple.pem',
        '-key',
        'staple.key',
        '-status_file',
        'staple.resp',
        '-naccept',
        '1',
        '-quiet',
      ],
      {
        cwd: ssl.dir,
        stdio: 'ignore',
      },
    );
    try {
      let client = { status: 1, output: '' };
      for (let attempt = 0; attempt < 50 && !client.output.includes('OCSP Response Status'); attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        // stdin at its end at once: s_client closes after the handshake and prints the session.
        const run = spawnSync('openssl', ['s_client', '-connect', `127.0.0.1:${port}`, '-status', '-CAfile', 'root.pem'], {
          cwd: ssl.dir,
          input: '',
          encoding: 'utf8',
          timeout: 10_000,
        });
        client = { status: run.status ?? -1, output: `${run.stdout}${run.stderr}` };
      }
      expect(client.output).toContain('OCSP Response Status: successful (0x0)');
      expect(client.output).toContain('Cert Status: good');
    } finally {
      server.kill();
    }
  });

  it('answers malformedRequest for a body that is not an OCSPRequest, unauthorized for another CA', async () => {
    const status = async (response: Response, name: string) => {
      expect(response.status).toBe(200);
      ssl.write(name, Buffer.from(await response.arrayBuffer()));
      return ssl.run('ocsp', '-respin', name, '-resp_text', '-noverify').output;
    };
    const garbage = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/ocsp-request' },
      body: Buffer.from('not der'),
    });
    expect(await status(garbage, 'garbage.resp')).toContain('Responder Error: malformedrequest (1)');
    expect(await status(await fetch(`${url}/%25%25%25`), 'badget.resp')).toContain('Responder Error: malformedrequest (1)');
    const request = readFileSync(join(ssl.dir, 'good.req'));
    const otherCa = await fetch(`${testApp.baseUrl}/ocsp/no-such-ca-999`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/ocsp-request' },
      body: request,
    });
    expect(await status(otherCa, 'other.resp')).toContain('Responder Error: unauthorized (6)');
    // The root did not issue the leaf: its responder is not authoritative for it.
    const asRoot = await ssl.runAsync(
      'ocsp',
      '-issuer',
      'issuer.pem',
      '-cert',
      'good.pem',
      '-no_nonce',
      '-url',
      `${testApp.baseUrl}/ocsp/${rootCa.slug}`,
    );
    expect(asRoot.output).toContain('Responder Error: unauthorized (6)');
  });

  it('signs with a delegated responder certificate the CA issues (OCSPSigning, ocsp-nocheck), its key encrypted at rest', async () => {
    const patched = await api.patch(`/cas/${ca.id}`, { ocsp_signer: 'delegated', ocsp_validity_hours: 2 }, root.token);
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ ocsp_signer: 'delegated', ocsp_validity_hours: 2, ocsp_url: `http://pki.test/ocsp/${ca.slug}` });
    const answer = await ask('-cert', 'good.pem', '-resp_text');
    expect(answer.output).toContain('Response verify OK');
    expect(answer.output).toContain('good.pem: good');
    expect(answer.output).toContain('Subject: CN=OCSP Responder');
    expect(answer.output).toMatch(/X509v3 Extended Key Usage:\s+OCSP Signing/);
    expect(answer.output).toContain('OCSP No Check');
    const [, thisUpdate, nextUpdate] = /This Update: (.+)\n\s+Next Update: (.+)\n/.exec(answer.output)!;
    expect(Date.parse(nextUpdate) - Date.parse(thisUpdate)).toBe(2 * 3_600_000);
    const revokedAnswer = await ask('-cert', 'revoked.pem', '-no_nonce');
    expect(revokedAnswer.output).toMatch(/revoked.pem: revoked[\s\S]*Reason: keyCompromise/);
    const db = new Client({ connectionString: testApp.database.url });
    await db.connect();
    try {
      const { rows } = await db.query(
        'SELECT ocsp_signer_certificate, ocsp_signer_private_key FROM certificate_authorities WHERE id = $1',
        [ca.id],
      );
      expect(rows[0].ocsp_signer_certificate).toContain('BEGIN CERTIFICATE');
      expect(rows[0].ocsp_signer_private_key).toMatch(/^enc:v1:/);
      expect(rows[0].ocsp_signer_private_key).not.toContain('PRIVATE KEY');
    } finally {
      await db.end();
    }
  });
});

/** A TCP port free on the loopback interface now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
    probe.on('error', reject);
  });
}
