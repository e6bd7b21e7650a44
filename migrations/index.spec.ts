import { readdirSync } from 'node:fs';
import { CORE_MIGRATIONS, MIGRATIONS } from './index';

describe('migrations/index.ts', () => {
  const files = readdirSync(__dirname).filter((name) => /^\d+-.+\.ts$/.test(name) && !name.endsWith('.spec.ts'));

  it('lists every migration file in this folder, oldest first', () => {
    const timestamps = files.map((name) => Number(name.split('-')[0])).sort((a, b) => a - b);
    expect(CORE_MIGRATIONS.map((migration) => Number(/(\d{13})$/.exec(migration.name)?.[1]))).toEqual(timestamps);
  });

  it('names each file <timestamp>-<Name>.ts after the class it holds', () => {
    const classNames = CORE_MIGRATIONS.map((migration) => migration.name);
    const fromFiles = files.map((name) => {
      const [timestamp, rest] = [name.split('-')[0], name.slice(name.indexOf('-') + 1, -3)];
      return `${rest}${timestamp}`;
    });
    expect(classNames.sort()).toEqual(fromFiles.sort());
  });

  it('runs the migrations of every available plugin among the platform ones, by timestamp, each name once', () => {
    const timestamps = MIGRATIONS.map((migration) => Number(/(\d{13})$/.exec(migration.name)?.[1]));
    expect(timestamps).toEqual([...timestamps].sort((a, b) => a - b));
    expect(new Set(MIGRATIONS.map((migration) => migration.name)).size).toBe(MIGRATIONS.length);
    expect(MIGRATIONS).toEqual(expect.arrayContaining(CORE_MIGRATIONS));
  });
});
