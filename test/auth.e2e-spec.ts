import * as jwt from 'jsonwebtoken';
import { createHash } from 'node:crypto';
import { Client } from 'pg';
import { AuthHousekeeping } from '../src/modules/auth/auth-housekeeping.service';
import { ApiClient, createBootstrapSuperuser, Fixture, PASSWORD } from './support/api-client';
import { startTestApp, TEST_SECRET_KEY, TestApp } from './support/test-app';

describe('authentication', () => {
  let testApp: TestApp;
  let api: ApiClient;
  let db: Client;
  let root: Fixture;

  beforeAll(async () => {
    testApp = await startTestApp({ env: { AUTH_RATE_LIMIT: '1000/minute', AUTH_ADDRESS_RATE_LIMIT: '1000/minute' } });
    api = new ApiClient(testApp.baseUrl);
    db = new Client({ connectionString: testApp.database.url });
    await db.connect();
    root = await createBootstrapSuperuser(api);
  });

  afterAll(async () => {
    await db.end();
    await testApp.close();
  });

  async function newUser(username: string): Promise<Fixture> {
    const created = await api.post('/users/', { username, email: `${username}@example.com`, password: PASSWORD }, root.token);
    expect(created.status).toBe(201);
    return { id: created.body.id, username, token: await api.token(username, PASSWORD) };
  }

  const me = (token: string) => api.get('/users/me', token);

  describe('POST /auth/token', () => {
    it('issues a bearer token pair whose access token carries the documented claims', async () => {
      const response = await api.login('root', PASSWORD);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        access_token: expect.any(String),
        token_type: 'bearer',
        refresh_token: expect.any(String),
        expires_in: 15 * 60,
      });
      const claims = jwt.verify(response.body.access_token, TEST_SECRET_KEY, { algorithms: ['HS256'] }) as jwt.JwtPayload;
      expect(claims).toEqual({
        sub: 'root',
        id: root.id,
        role: 'superuser',
        iat: expect.any(Number),
        exp: expect.any(Number),
        jti: expect.stringMatching(/^[0-9a-f-]{36}$/),
        sid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      });
      expect(claims.exp! - claims.iat!).toBe(900);
      expect(Buffer.from(response.body.refresh_token, 'base64url').length).toBeGreaterThanOrEqual(32);
      expect((await me(response.body.access_token)).body.username).toBe('root');
    });

    it('stores the refresh token only as its SHA-256', async () => {
      const { refresh_token } = await api.tokens('root', PASSWORD);
      const { rows } = await db.query('SELECT token_hash FROM refresh_tokens');
      const hashes = rows.map((row: { token_hash: string }) => row.token_hash);
      expect(hashes).toContain(createHash('sha256').update(refresh_token).digest('hex'));
      const dump = JSON.stringify((await db.query('SELECT * FROM refresh_tokens')).rows);
      expect(dump).not.toContain(refresh_token);
    });

    it('answers unknown user, wrong password and inactive user with the same 401', async () => {
      const inactive = await newUser('sleepy');
      expect((await api.patch(`/users/${inactive.id}`, { is_active: false }, root.token)).status).toBe(200);
      const answers = [
        await api.login('nobody-at-all', PASSWORD),
        await api.login('root', 'wrong-password'),
        await api.login('sleepy', PASSWORD),
      ];
      for (const answer of answers) {
        expect(answer.status).toBe(401);
        expect(answer.body).toEqual({ detail: 'Incorrect username or password' });
        expect(answer.headers.get('www-authenticate')).toBe('Bearer');
      }
    });

    it('spends comparable time on unknown users and wrong passwords', async () => {
      const time = async (username: string) => {
        const started = process.hrtime.bigint();
        await api.login(username, 'not-the-password');
        return Number(process.hrtime.bigint() - started) / 1e6;
      };
      let unknown = 0;
      let known = 0;
      for (let i = 0; i < 3; i++) {
        unknown += await time(`ghost-${i}`);
        known += await time('root');
      }
      expect(unknown).toBeGreaterThan(known * 0.5);
    });

    it('takes the OAuth 2.0 form encoding and rejects missing fields and a wrong grant type', async () => {
      expect((await api.request('POST', '/auth/token', { form: { username: 'root' } })).status).toBe(400);
      const badGrant = await api.request('POST', '/auth/token', {
        form: { grant_type: 'client_credentials', username: 'root', password: PASSWORD },
      });
      expect(badGrant.status).toBe(400);
      const ok = await api.request('POST', '/auth/token', {
        form: { grant_type: 'password', username: 'root', password: PASSWORD, scope: '' },
      });
      expect(ok.status).toBe(200);
    });
  });

  describe('access tokens', () => {
    let user: Fixture;
    let claims: jwt.JwtPayload;

    beforeAll(async () => {
      user = await newUser('tokenuser');
      claims = jwt.decode(user.token) as jwt.JwtPayload;
    });

    it('rejects a missing, malformed or non-bearer Authorization header with 401', async () => {
      const missing = await me('');
      expect(missing.status).toBe(401);
      expect(missing.body).toEqual({ detail: 'Not authenticated' });
      expect((await api.request('GET', '/users/me', { headers: { authorization: 'Basic cm9vdDpwdw==' } })).status).toBe(401);
      expect((await me('not.a.jwt')).status).toBe(401);
    });

    it.each([
      ['signed with another key', () => jwt.sign({ ...claims }, 'another-key-another-key-another-key!!', { algorithm: 'HS256' })],
      ['with alg none', () => jwt.sign({ ...claims }, '', { algorithm: 'none' })],
      ['with a different HMAC algorithm', () => jwt.sign({ ...claims }, TEST_SECRET_KEY, { algorithm: 'HS512' })],
      ['expired', () => jwt.sign({ ...claims, iat: claims.iat! - 3600, exp: claims.iat! - 60 }, TEST_SECRET_KEY, { algorithm: 'HS256' })],
      ['missing its session id', () => jwt.sign({ ...claims, sid: undefined }, TEST_SECRET_KEY, { algorithm: 'HS256' })],
      [
        'naming another session',
        () => jwt.sign({ ...claims, sid: '00000000-0000-4000-8000-000000000000' }, TEST_SECRET_KEY, { algorithm: 'HS256' }),
      ],
      ['with a non-uuid session id', () => jwt.sign({ ...claims, sid: "x' OR 1=1 --" }, TEST_SECRET_KEY, { algorithm: 'HS256' })],
      ['for a user that does not exist', () => jwt.sign({ ...claims, id: 999999 }, TEST_SECRET_KEY, { algorithm: 'HS256' })],
    ])('rejects a token %s with 401', async (_name, forge) => {
      const response = await me(forge());
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ detail: 'Could not validate credentials' });
    });

    it('takes role and organization from the database, not from the token', async () => {
      const boosted = jwt.sign({ ...claims, role: 'superuser' }, TEST_SECRET_KEY, { algorithm: 'HS256' });
      expect((await api.get('/users/', boosted)).status).toBe(403);
    });
  });

  describe('refresh token rotation', () => {
    it('consumes the refresh token and issues a new pair; the old one is invalid at once', async () => {
      const first = await api.tokens('root', PASSWORD);
      const rotated = await api.post('/auth/refresh', { refresh_token: first.refresh_token });
      expect(rotated.status).toBe(200);
      expect(rotated.body.refresh_token).not.toBe(first.refresh_token);
      expect((await me(rotated.body.access_token)).status).toBe(200);
      const again = await api.post('/auth/refresh', { refresh_token: rotated.body.refresh_token });
      expect(again.status).toBe(200);
    });

    it('treats reuse of a consumed token as theft: 401 and the whole session is revoked', async () => {
      const first = await api.tokens('root', PASSWORD);
      const second = (await api.post('/auth/refresh', { refresh_token: first.refresh_token })).body;
      const replay = await api.post('/auth/refresh', { refresh_token: first.refresh_token });
      expect(replay.status).toBe(401);
      expect(replay.body).toEqual({ detail: 'Invalid or expired refresh token' });
      expect((await api.post('/auth/refresh', { refresh_token: second.refresh_token })).status).toBe(401);
      expect((await me(second.access_token)).status).toBe(401);
      expect((await me(first.access_token)).status).toBe(401);
      const { rows } = await db.query("SELECT count(*)::int AS n FROM audit_logs WHERE action = 'refresh_token_reuse'");
      expect(rows[0].n).toBeGreaterThanOrEqual(1);
    });

    it('lets exactly one of 50 concurrent refreshes with the same token succeed', async () => {
      const { refresh_token } = await api.tokens('root', PASSWORD);
      const answers = await Promise.all(Array.from({ length: 50 }, () => api.post('/auth/refresh', { refresh_token })));
      const statuses = answers.map((answer) => answer.status);
      expect(statuses.filter((status) => status === 200)).toHaveLength(1);
      expect(statuses.filter((status) => status === 401)).toHaveLength(49);
    });

    it('rejects unknown, expired, missing and malformed refresh tokens', async () => {
      expect((await api.post('/auth/refresh', { refresh_token: 'never-issued' })).status).toBe(401);
      const { refresh_token } = await api.tokens('root', PASSWORD);
      const hash = createHash('sha256').update(refresh_token).digest('hex');
      await db.query("UPDATE refresh_tokens SET expires_at = now() - interval '1 second' WHERE token_hash = $1", [hash]);
      expect((await api.post('/auth/refresh', { refresh_token })).status).toBe(401);
      expect((await api.post('/auth/refresh', {})).status).toBe(400);
      expect((await api.post('/auth/refresh', { refresh_token: 42 })).status).toBe(400);
    });

    it('refuses to refresh for a deactivated user', async () => {
      const user = await newUser('fading');
      const pair = await api.tokens('fading', PASSWORD);
      expect((await api.patch(`/users/${user.id}`, { is_active: false }, root.token)).status).toBe(200);
      expect((await api.post('/auth/refresh', { refresh_token: pair.refresh_token })).status).toBe(401);
    });
  });

  describe('POST /auth/logout', () => {
    it('revokes the session refresh token and blocklists the access token until it expires', async () => {
      const pair = await api.tokens('root', PASSWORD);
      const jti = (jwt.decode(pair.access_token) as jwt.JwtPayload).jti;
      const logout = await api.post('/auth/logout', undefined, pair.access_token);
      expect(logout.status).toBe(204);
      expect(logout.text).toBe('');
      expect((await me(pair.access_token)).status).toBe(401);
      expect((await api.post('/auth/refresh', { refresh_token: pair.refresh_token })).status).toBe(401);
      const { rows } = await db.query('SELECT expires_at FROM token_blocklist WHERE jti = $1', [jti]);
      expect(rows).toHaveLength(1);
      expect(new Date(rows[0].expires_at).getTime()).toBeGreaterThan(Date.now());
      expect((await api.post('/auth/logout', undefined, pair.access_token)).status).toBe(401);
    });

    it('leaves the user’s other sessions alone', async () => {
      const kept = await api.tokens('root', PASSWORD);
      const ended = await api.tokens('root', PASSWORD);
      expect((await api.post('/auth/logout', undefined, ended.access_token)).status).toBe(204);
      expect((await me(kept.access_token)).status).toBe(200);
      expect((await api.post('/auth/refresh', { refresh_token: kept.refresh_token })).status).toBe(200);
    });

    it('needs a bearer token', async () => {
      expect((await api.post('/auth/logout')).status).toBe(401);
    });
  });

  describe('POST /auth/invalidate', () => {
    it('revokes every refresh token of the user and rejects every access token issued before', async () => {
      const user = await newUser('invalidator');
      const a = await api.tokens('invalidator', PASSWORD);
      const b = await api.tokens('invalidator', PASSWORD);
      const other = await api.tokens('root', PASSWORD);
      expect((await api.post('/auth/invalidate', undefined, a.access_token)).status).toBe(204);
      for (const pair of [a, b]) {
        expect((await me(pair.access_token)).status).toBe(401);
        expect((await api.post('/auth/refresh', { refresh_token: pair.refresh_token })).status).toBe(401);
      }
      expect((await me(user.token)).status).toBe(401);
      expect((await me(other.access_token)).status).toBe(200);
      const fresh = await api.tokens('invalidator', PASSWORD);
      expect((await me(fresh.access_token)).status).toBe(200);
    });

    it('needs a bearer token', async () => {
      expect((await api.post('/auth/invalidate')).status).toBe(401);
    });
  });

  describe('expired rows', () => {
    it('are purged by the housekeeping job', async () => {
      await db.query("INSERT INTO token_blocklist (jti, expires_at) VALUES (gen_random_uuid(), now() - interval '1 minute')");
      const { refresh_token } = await api.tokens('root', PASSWORD);
      const hash = createHash('sha256').update(refresh_token).digest('hex');
      await db.query("UPDATE refresh_tokens SET expires_at = now() - interval '1 minute' WHERE token_hash = $1", [hash]);
      await testApp.app.get(AuthHousekeeping).purge();
      expect((await db.query('SELECT count(*)::int AS n FROM token_blocklist WHERE expires_at <= now()')).rows[0].n).toBe(0);
      expect((await db.query('SELECT count(*)::int AS n FROM refresh_tokens WHERE token_hash = $1', [hash])).rows[0].n).toBe(0);
    });
  });
});

describe('login rate limit', () => {
  let testApp: TestApp;
  let api: ApiClient;

  beforeAll(async () => {
    testApp = await startTestApp({
      env: {
        AUTH_RATE_LIMIT: '3/minute',
        AUTH_ADDRESS_RATE_LIMIT: '6/minute',
        AUTH_USERNAME_RATE_LIMIT: '4/hour',
        TRUST_PROXY: 'loopback',
        // Short, so that logins queueing on a lock would run into it as they do under load.
        DATABASE_LOCK_TIMEOUT_MS: '100',
        AUTH_HASH_CONCURRENCY: '1',
        AUTH_HASH_QUEUE: '2',
      },
    });
    api = new ApiClient(testApp.baseUrl);
    await createBootstrapSuperuser(api);
    expect(
      (await api.post('/users/', { username: 'alice', email: 'alice@example.com', password: PASSWORD }, await api.token('root', PASSWORD)))
        .status,
    ).toBe(201);
  });

  afterAll(async () => {
    await testApp.close();
  });

  const from = (address: string) => ({ 'X-Forwarded-For': address });
  const provision = (username: string, password: string, address: string) =>
    api.request('POST', '/api/users/tokens/provision/', { json: { username, password }, headers: from(address) });

  it('answers 429 with Retry-After once an address has failed too often for a username, even with the right password', async () => {
    for (let i = 0; i < 3; i++) expect((await api.login('root', 'nope', from('198.51.100.1'))).status).toBe(401);
    const blocked = await api.login('root', PASSWORD, from('198.51.100.1'));
    expect(blocked.status).toBe(429);
    const retryAfter = Number(blocked.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect((blocked.body as unknown as { detail: string }).detail).toMatch(/^Too many failed login attempts; retry in \d+ seconds$/);
    expect((await provision('root', PASSWORD, '198.51.100.1')).status).toBe(429);
    expect((await api.login('root', PASSWORD, from('198.51.100.2'))).status).toBe(200);
  });

  it('limits an address across usernames (AUTH_ADDRESS_RATE_LIMIT)', async () => {
    for (let i = 0; i < 6; i++) expect((await api.login(`guess-${i}`, 'nope', from('198.51.100.3'))).status).toBe(401);
    expect((await api.login('alice', PASSWORD, from('198.51.100.3'))).status).toBe(429);
    expect((await api.login('alice', PASSWORD, from('198.51.100.4'))).status).toBe(200);
  });

  it('cannot lock a user out: many wrong passwords from other addresses never refuse the right one from a clean address', async () => {
    for (let i = 0; i < 12; i++) {
      const address = `203.0.113.${i + 1}`;
      const response = await api.login('alice', 'wrong', from(address));
      expect([401, 429]).toContain(response.status);
    }
    for (let i = 0; i < 10; i++) expect((await api.login('alice', 'wrong', from('192.0.2.66'))).status).not.toBe(200);
    expect((await api.login('alice', PASSWORD, from('192.0.2.200'))).status).toBe(200);
    expect((await provision('alice', PASSWORD, '192.0.2.201')).status).toBe(201);
  });

  it('slows a username attacked from many addresses: past the ceiling, addresses that failed for it are refused', async () => {
    for (let i = 0; i < 4; i++) expect((await api.login('root', 'wrong', from(`203.0.113.${100 + i}`))).status).toBe(401);
    expect((await api.login('root', 'wrong', from('203.0.113.150'))).status).toBe(401);
    expect((await api.login('root', PASSWORD, from('203.0.113.150'))).status).toBe(429);
    expect((await api.login('root', PASSWORD, from('203.0.113.151'))).status).toBe(200);
  });

  it.each([
    ['POST /auth/token', (i: number) => api.login('burst-user', `wrong-${i}`, from('198.51.100.50'))],
    ['POST /api/users/tokens/provision/', (i: number) => provision('burst-user-2', `wrong-${i}`, '198.51.100.51')],
  ])('counts a parallel burst of 30 wrong passwords atomically on %s', async (_endpoint, attempt) => {
    const statuses = (await Promise.all(Array.from({ length: 30 }, (_, i) => attempt(i)))).map((response) => response.status);
    const refused = statuses.filter((status) => status === 429).length;
    const checked = statuses.length - refused;
    expect(checked).toBe(3);
    expect(statuses.filter((status) => status !== 429).every((status) => status === 401 || status === 403)).toBe(true);
  });

  it('a burst of 60 wrong passwords for one user from 60 addresses never answers 503, and the right password then logs in at once', async () => {
    expect(
      (await api.post('/users/', { username: 'carol', email: 'carol@example.com', password: PASSWORD }, await api.token('root', PASSWORD)))
        .status,
    ).toBe(201);
    const timed = async (address: string) => {
      const started = Date.now();
      const response = await api.login('carol', PASSWORD, from(address));
      return { status: response.status, retryAfter: response.headers.get('retry-after'), seconds: (Date.now() - started) / 1000 };
    };
    // One hash at a time and two waiting (below): a login waits for at most three hashes, not for the burst's sixty.
    // The bounds scale with a single login measured here (the slowest of three, so that one lucky
    // fast one cannot tighten them): a loaded machine slows both alike.
    let baseline = 0;
    for (const address of ['198.18.1.3', '198.18.1.4', '198.18.1.5']) baseline = Math.max(baseline, (await timed(address)).seconds);
    const bursting = Promise.all(Array.from({ length: 60 }, (_, i) => api.login('carol', `wrong-${i}`, from(`198.18.0.${i + 1}`))));
    await new Promise((resolve) => setTimeout(resolve, 100));
    // During the burst the right password is either checked at once or refused at once with a time to retry.
    const during = await timed('198.18.1.1');
    const burst = await bursting;
    expect(burst.map((response) => response.status).filter((status) => status !== 401 && status !== 429)).toEqual([]);
    for (const refused of burst.filter((response) => response.status === 429)) {
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
    expect(during.status === 200 || (during.status === 429 && Number(during.retryAfter) >= 1)).toBe(true);
    expect(during.seconds).toBeLessThan(Math.max(2, 10 * baseline));
    const after = await timed('198.18.1.2');
    expect(after.status).toBe(200);
    expect(after.seconds).toBeLessThan(Math.max(2, 3 * baseline));
  });
});
