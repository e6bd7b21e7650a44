import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { APPLICATION_MIGRATIONS } from '../src/application-migrations';
import { PASSWORD } from './support/api-client';
import { freePort, ServerProcess } from './support/server-process';
import { createTestDatabase, type TestDatabase } from './support/test-database';

/**
 * The expand/contract rule of docs/operations.md ("Upgrading"), proven on the real thing: the release
 * before the newest migration (its commit's code, built here) serves requests while the current
 * build applies that migration to the same database, and no request fails. PostgreSQL only (the
 * embedded database is one process).
 */

const ROOT = join(__dirname, '..');
const git = (...args: string[]) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();

/** Runs the current build's migration command against `url`; resolves with its exit code and output. */
function migrate(command: 'run' | 'revert', url: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(ROOT, 'dist', 'src', 'bin', 'migrate.js'), command], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NODE_ENV: 'test', DATABASE_URL: url, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

const newest = APPLICATION_MIGRATIONS[APPLICATION_MIGRATIONS.length - 1];

/** The commit that added the newest migration, when this checkout has its history (not a shallow clone or an export). */
function commitAddingNewest(): string | null {
  const timestamp = /(\d{13})$/.exec(newest.name)![1];
  try {
    if (git('rev-parse', '--is-shallow-repository') !== 'false') return null;
    const commit = git('log', '--first-parent', '--diff-filter=A', '--format=%H', '--', `*${timestamp}-*.ts`).split('\n').pop()!;
    return /^[0-9a-f]{40}$/.test(commit) ? commit : null;
  } catch {
    return null;
  }
}

const added = commitAddingNewest();
const onServerDatabaseWithHistory = process.env.E2E_DB_MODE !== 'embedded' && added ? describe : describe.skip;

onServerDatabaseWithHistory('zero-downtime migrations', () => {
  const previousDir = mkdtempSync(join(tmpdir(), 'previous-release-'));
  let database: TestDatabase;
  let db: Client;
  let previous: ServerProcess | undefined;

  beforeAll(async () => {
    // The release before the newest migration: the parent of the commit that added it, built with this checkout's packages.
    const archive = execFileSync(
      'git',
      [
        'archive',
        '--format=tar',
        `${added}^`,
        'src',
        'libs',
        'migrations',
        'docs',
        'package.json',
        'nest-cli.json',
        'tsconfig.json',
        'tsconfig.build.json',
      ],
      {
        cwd: ROOT,
        maxBuffer: 256 * 1024 * 1024,
      },
    );
    execFileSync('tar', ['-x', '-C', previousDir], { input: archive });
    symlinkSync(join(ROOT, 'node_modules'), join(previousDir, 'node_modules'));
    // Nest's build, as `npm run build` (it rewrites the @libs/ path aliases).
    execFileSync(process.execPath, [join(ROOT, 'node_modules', '@nestjs', 'cli', 'bin', 'nest.js'), 'build'], { cwd: previousDir });

    database = await createTestDatabase();
    db = new Client({ connectionString: database.url });
    await db.connect();
    // The template is migrated to the newest: take the newest migration off again, as the previous release left the schema.
    const reverted = await migrate('revert', database.url);
    expect(reverted).toMatchObject({ code: 0 });
  }, 300_000);

  afterAll(async () => {
    await previous?.stop('SIGKILL');
    await db?.end();
    await database?.drop();
    rmSync(previousDir, { recursive: true, force: true });
  });

  it(`applies the newest migration (${newest.name}) while the previous release serves, with no failed request`, async () => {
    const applied = async () => (await db.query('SELECT name FROM migrations ORDER BY id')).rows.map((row: { name: string }) => row.name);
    expect(await applied()).not.toContain(newest.name);

    previous = ServerProcess.spawn(
      { DATABASE_URL: database.url, PORT: String(await freePort()), WEB_CONCURRENCY: '1', LOG_LEVEL: 'warn' },
      previousDir,
      join(previousDir, 'dist', 'src', 'main.js'),
    );
    await previous.waitUntilHealthy();
    const base = previous.baseUrl;
    const created = await fetch(`${base}/api/v1/users/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'root', email: 'root@example.com', password: PASSWORD, role: 'superuser' }),
    });
    expect(created.status).toBe(201);
    const provisioned = await fetch(`${base}/api/users/tokens/provision/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'root', password: PASSWORD }),
    });
    const headers = { authorization: `Token ${((await provisioned.json()) as { key: string }).key}`, 'content-type': 'application/json' };

    const provider = await fetch(`${base}/api/circuits/providers/`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: 'Carrier', slug: 'carrier' }),
    });
    expect(provider.status).toBe(201);
    const providerId = ((await provider.json()) as { id: number }).id;
    const maintenance = (i: number) =>
      JSON.stringify({
        name: `MNT-${i}`,
        summary: 'fibre work',
        provider: providerId,
        status: 'CONFIRMED',
        start: '2030-01-01T00:00:00Z',
        end: '2030-01-01T01:00:00Z',
      });

    // Reads and writes of every model, plugins' included, in a loop until the migration is done and a little after.
    const failures: string[] = [];
    let requests = 0;
    let migrating = true;
    const paths = ['/api/dcim/sites/', '/api/plugins/notices/maintenance/', '/api/plugins/notices/prepared-notifications/', '/api/status/'];
    const load = (async () => {
      for (let i = 0; migrating || i % 20 !== 0; i++) {
        const answers = await Promise.all([
          ...paths.map((path) => fetch(`${base}${path}`, { headers }).then((response) => [`GET ${path}`, response.status] as const)),
          fetch(`${base}/api/dcim/sites/`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ name: `site ${i}`, slug: `site-${i}` }),
          }).then((response) => ['POST /api/dcim/sites/', response.status] as const),
          // A table the migration alters, written by the release that does not know its new columns.
          fetch(`${base}/api/plugins/notices/maintenance/`, { method: 'POST', headers, body: maintenance(i) }).then(
            (response) => ['POST /api/plugins/notices/maintenance/', response.status] as const,
          ),
        ]);
        requests += answers.length;
        for (const [request, status] of answers) if (status >= 300) failures.push(`${request} → ${status}`);
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const migration = await migrate('run', database.url);
    migrating = false;
    await load;

    expect({ code: migration.code, output: migration.code === 0 ? '' : migration.output }).toEqual({ code: 0, output: '' });
    expect(await applied()).toContain(newest.name);
    expect(failures).toEqual([]);
    expect(requests).toBeGreaterThan(50);
    // The new release reads what the old one wrote during the change.
    const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM notices_maintenance WHERE name LIKE 'MNT-%'`);
    expect(rows[0].n).toBe(requests / 6);
    expect((await fetch(`${base}/health`)).status).toBe(200);
  });
});
