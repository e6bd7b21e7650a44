import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { PrivateKeyReencryption } from '../src/modules/pki/private-key-reencryption.service';
import { ApiClient, createBootstrapSuperuser, PASSWORD } from './support/api-client';
import { startTestApp, TestApp } from './support/test-app';
import { SETUP_HOOK_TIMEOUT_MS } from './support/timing';

describe('private-key encryption key rotation', () => {
  const oldKey = randomBytes(32).toString('base64');
  const newKey = randomBytes(32).toString('base64');
  const apps: TestApp[] = [];

  afterAll(async () => {
    for (const app of apps.reverse()) await app.close();
  });

  async function appOn(url: string | undefined, env: Record<string, string>): Promise<TestApp> {
    const app = await startTestApp({ env, databaseUrl: url ? () => url : undefined });
    apps.push(app);
    return app;
  }

  it(
    're-encrypts every stored key under the new key; keys stay usable and the old key is no longer needed',
    async () => {
      const first = await appOn(undefined, { PRIVATE_KEY_ENCRYPTION_KEY: oldKey });
      const url = first.database.url;
      const api = new ApiClient(first.baseUrl);
      const root = await createBootstrapSuperuser(api);
      const ca = (await api.post('/cas/', { name: 'Rotating', subject_dn: 'CN=Rotating', key_type: 'ecdsa-p256' }, root.token)).body;
      const cert = (
        await api.post(
          `/certificates/?ca_id=${ca.id}`,
          { common_name: 'r.example.com', subject_dn: 'O=R', certificate_type: 'server', key_type: 'ed25519' },
          root.token,
        )
      ).body;

      const rotating = await appOn(url, { PRIVATE_KEY_ENCRYPTION_KEY: newKey, PRIVATE_KEY_ENCRYPTION_OLD_KEYS: oldKey });
      expect(await rotating.app.get(PrivateKeyReencryption).run()).toEqual({ cas: 1, certificates: 1 });
      expect(await rotating.app.get(PrivateKeyReencryption).run()).toEqual({ cas: 0, certificates: 0 });

      const after = await appOn(url, { PRIVATE_KEY_ENCRYPTION_KEY: newKey });
      const afterApi = new ApiClient(after.baseUrl);
      const token = await afterApi.token('root', PASSWORD);
      const caKey = await afterApi.get(`/cas/${ca.id}/private-key`, token);
      expect(caKey.status).toBe(200);
      expect(caKey.body.private_key).toBe(ca.private_key);
      const certKey = await afterApi.get(`/certificates/${cert.id}/private-key`, token);
      expect(certKey.body.private_key).toBe(cert.private_key);

      const stale = await appOn(url, { PRIVATE_KEY_ENCRYPTION_KEY: oldKey });
      const staleApi = new ApiClient(stale.baseUrl);
      const refused = await staleApi.get(`/cas/${ca.id}/private-key`, await staleApi.token('root', PASSWORD));
      expect(refused.status).toBe(503);
      expect(refused.body.detail).toMatch(/unknown key/);

      const db = new Client({ connectionString: url });
      await db.connect();
      try {
        const { rows } = await db.query('SELECT private_key FROM certificate_authorities UNION ALL SELECT private_key FROM certificates');
        expect(rows.every((row: { private_key: string }) => row.private_key.startsWith('enc:v1:'))).toBe(true);
      } finally {
        await db.end();
      }
    },
    SETUP_HOOK_TIMEOUT_MS,
  );
});
