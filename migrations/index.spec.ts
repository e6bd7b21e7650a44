import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { MigrationInterface } from 'typeorm';
import { AVAILABLE_PLUGINS } from '../src/plugins';
import { CORE_MIGRATIONS, migrationsOf } from './index';

const timestampOf = (migration: new () => MigrationInterface) => Number(/(\d{13})$/.exec(migration.name)?.[1]);

/** The folder's migration files must be exactly the listed classes, oldest first, each file `<timestamp>-<Name>.ts` holding `<Name><timestamp>`. */
function expectListed(directory: string, listed: ReadonlyArray<new () => MigrationInterface>): void {
  const files = existsSync(directory)
    ? readdirSync(directory).filter((name) => /^\d+-.+\.ts$/.test(name) && !name.endsWith('.spec.ts'))
    : [];
  const timestamps = files.map((name) => Number(name.split('-')[0])).sort((a, b) => a - b);
  expect(listed.map(timestampOf)).toEqual(timestamps);
  const fromFiles = files.map((name) => `${name.slice(name.indexOf('-') + 1, -3)}${name.split('-')[0]}`);
  expect(listed.map((migration) => migration.name).sort()).toEqual(fromFiles.sort());
}

describe('migrations/index.ts', () => {
  it('lists every migration file in this folder, oldest first, named <timestamp>-<Name>.ts after its class', () => {
    expectListed(__dirname, CORE_MIGRATIONS);
  });

  it.each(AVAILABLE_PLUGINS.map((plugin) => [plugin.name, plugin] as const))(
    'plugin %s lists every file of its migrations folder',
    (name, plugin) => {
      expectListed(join(__dirname, '..', 'src', 'plugins', name, 'migrations'), plugin.migrations ?? []);
    },
  );

  it('runs the migrations of every available plugin among the platform ones, by timestamp, each name once', () => {
    const MIGRATIONS = migrationsOf(AVAILABLE_PLUGINS);
    const timestamps = MIGRATIONS.map(timestampOf);
    expect(timestamps).toEqual([...timestamps].sort((a, b) => a - b));
    expect(new Set(MIGRATIONS.map((migration) => migration.name)).size).toBe(MIGRATIONS.length);
    expect(MIGRATIONS).toHaveLength(
      CORE_MIGRATIONS.length + AVAILABLE_PLUGINS.reduce((sum, plugin) => sum + (plugin.migrations?.length ?? 0), 0),
    );
  });
});
