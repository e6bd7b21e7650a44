import { Client } from 'pg';
import { PASSWORD } from './support/api-client';
import { recordStatements } from './support/statement-recorder';
import { PlatformClient, provisionToken } from './support/platform-client';
import { startSeededApp, type SeededApp } from './support/seeded-app';

const onServerDatabase = process.env.E2E_DB_MODE !== 'embedded' ? it : it.skip;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A connection of the test's own LISTENing on the credentials channel: `delivered()` resolves with
 * the next notification, once PostgreSQL has delivered it to a listener in another process.
 */
async function credentialNotifications(url: string): Promise<{ delivered(): Promise<string>; end(): Promise<void> }> {
  const client = new Client({ connectionString: url });
  await client.connect();
  await client.query('LISTEN credentials_changed');
  return {
    delivered: () => new Promise((resolve) => client.once('notification', (message) => resolve(message.payload ?? ''))),
    end: () => client.end(),
  };
}

/**
 * A credential check that passed is kept per process (src/common/auth/credential-cache.ts): the
 * next request with the same credential runs no statement, and any change to the credential or its
 * user, made through the API or by anyone with SQL, is refused from the very next request. While
 * the process cannot hear the database's notifications it keeps nothing.
 */
describe('credential cache', () => {
  let seeded: SeededApp;

  beforeAll(async () => {
    seeded = await startSeededApp();
  });

  afterAll(async () => {
    await seeded?.testApp.close();
  });

  /** The answer's status and the statements the app ran for it (TypeORM's query runner and the pool). */
  async function statementsOf(request: () => Promise<{ status: number }>): Promise<{ status: number; statements: string[] }> {
    // The token's last use is written at most once a minute whatever the request.
    const { result, statements } = await recordStatements(seeded.testApp.app, request, (text) => !text.includes('SET last_used = now()'));
    return { status: result.status, statements };
  }

  /** Runs `sql` (about user `userId`) on the test's connection and waits until its notification has been delivered. */
  async function changeDelivered(sql: string, userId: number): Promise<void> {
    const watcher = await credentialNotifications(seeded.testApp.database.url);
    try {
      const delivered = watcher.delivered();
      await seeded.db.query(sql, [userId]);
      expect(await delivered).toBe(String(userId));
    } finally {
      await watcher.end();
    }
  }

  const me = (token: string) => () => seeded.api.get('/users/me', token);

  it('answers a second request with the same JWT or API token without a statement', async () => {
    const jwt = await seeded.api.token('user1', PASSWORD);
    expect(await statementsOf(me(jwt))).toEqual({ status: 200, statements: [expect.stringContaining('auth_sessions')] });
    expect(await statementsOf(me(jwt))).toEqual({ status: 200, statements: [] });

    const platform = new PlatformClient(seeded.testApp.baseUrl, await provisionToken(seeded.api, 'user1', PASSWORD));
    const root = () => platform.get('/api/plugins/fms/');
    expect(await statementsOf(root)).toEqual({ status: 200, statements: [expect.stringContaining('users_token')] });
    expect(await statementsOf(root)).toEqual({ status: 200, statements: [] });
  });

  it('refuses the next request after a logout, a token deletion, a deactivation or a demotion made through the API', async () => {
    const { root } = seeded.w;
    const loggedOut = await seeded.api.token('loner', PASSWORD);
    expect((await seeded.api.get('/users/me', loggedOut)).status).toBe(200);
    expect((await seeded.api.post('/auth/logout', undefined, loggedOut)).status).toBeLessThan(300);
    expect((await seeded.api.get('/users/me', loggedOut)).status).toBe(401);

    const key = await provisionToken(seeded.api, 'loner', PASSWORD);
    const platform = new PlatformClient(seeded.testApp.baseUrl, key);
    const listed = (await platform.get('/api/users/tokens/')).body.results as Array<{ id: number; display: string }>;
    const own = listed.find((token) => token.display === `**********${key.slice(-4)}`)!;
    expect((await platform.get('/api/plugins/fms/')).status).toBe(200);
    expect((await platform.delete(`/api/users/tokens/${own.id}/`)).status).toBe(204);
    expect((await platform.get('/api/plugins/fms/')).status).toBe(403);

    const boss = await seeded.api.post(
      '/users/',
      { username: 'boss', email: 'boss@example.com', password: PASSWORD, role: 'superuser', organization_id: null },
      root.token,
    );
    expect(boss.status).toBe(201);
    const bossToken = await seeded.api.token('boss', PASSWORD);
    expect((await seeded.api.get('/users/', bossToken)).status).toBe(200);
    expect((await seeded.api.patch(`/users/${boss.body.id}`, { role: 'user' }, root.token)).status).toBe(200);
    expect((await seeded.api.get('/users/', bossToken)).status).toBe(403);
    expect((await seeded.api.get('/users/me', bossToken)).body.role).toBe('user');
    expect((await seeded.api.patch(`/users/${boss.body.id}`, { is_active: false }, root.token)).status).toBe(200);
    expect((await seeded.api.get('/users/me', bossToken)).status).toBe(401);
  });

  onServerDatabase('refuses the next request after a change made with SQL on another connection', async () => {
    const { user2 } = seeded.w;
    const token = await seeded.api.token('user2', PASSWORD);
    expect(await statementsOf(me(token))).toMatchObject({ status: 200 });
    expect(await statementsOf(me(token))).toEqual({ status: 200, statements: [] });
    await changeDelivered("UPDATE auth_sessions SET revoked_at = now(), revoked_reason = 'logout' WHERE user_id = $1", user2.id);
    expect((await seeded.api.get('/users/me', token)).status).toBe(401);
  });

  onServerDatabase('keeps nothing while its notification connection is down, and resumes once it listens again', async () => {
    const { admin2 } = seeded.w;
    const listener = () =>
      seeded.db.query<{ pid: number; query: string; state: string }>(
        "SELECT pid, query, state FROM pg_stat_activity WHERE application_name = 'notification-listener' AND datname = current_database()",
      );
    const token = await seeded.api.token('admin2', PASSWORD);
    expect(await statementsOf(me(token))).toMatchObject({ status: 200 });
    expect(await statementsOf(me(token))).toEqual({ status: 200, statements: [] });

    const [{ pid }] = (await listener()).rows;
    await seeded.db.query('SELECT pg_terminate_backend($1)', [pid]);
    // Well inside the pause before the app reconnects: it has seen the connection end.
    await sleep(200);
    // Nobody hears this change's notification; the app must not serve what it kept.
    await seeded.db.query('UPDATE users SET is_active = false WHERE id = $1', [admin2.id]);
    expect((await seeded.api.get('/users/me', token)).status).toBe(401);
    await seeded.db.query('UPDATE users SET is_active = true WHERE id = $1', [admin2.id]);
    const fresh = await seeded.api.token('admin2', PASSWORD);
    // Not kept while deaf: each request runs the check (unless the listener is already back).
    const deaf = await listener();
    if (!deaf.rows.some((row) => row.pid !== pid && row.state === 'idle' && row.query.startsWith('LISTEN'))) {
      expect(await statementsOf(me(fresh))).toMatchObject({ status: 200, statements: [expect.stringContaining('auth_sessions')] });
    }

    const deadline = Date.now() + 30_000;
    while (!(await listener()).rows.some((row) => row.pid !== pid && row.state === 'idle' && row.query.startsWith('LISTEN'))) {
      if (Date.now() > deadline) throw new Error('the notification connection did not come back');
      await sleep(100);
    }
    expect(await statementsOf(me(fresh))).toMatchObject({ status: 200 });
    expect(await statementsOf(me(fresh))).toEqual({ status: 200, statements: [] });
    await changeDelivered('UPDATE users SET is_active = false WHERE id = $1', admin2.id);
    expect((await seeded.api.get('/users/me', fresh)).status).toBe(401);
  });
});
