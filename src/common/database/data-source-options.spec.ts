import type { MigrationInterface } from 'typeorm';

const mockLoaded: string[] = [];
jest.mock('../../plugins', () => {
  mockLoaded.push('src/plugins');
  return {};
});
jest.mock('../../../migrations', () => {
  mockLoaded.push('migrations');
  return {};
});

describe('the database layer', () => {
  it('loads neither the plugins nor the migrations: an entry point hands it the list to run', () => {
    let options: typeof import('./data-source-options') | undefined;
    jest.isolateModules(() => {
      jest.requireActual('./database.module');
      options = jest.requireActual<typeof import('./data-source-options')>('./data-source-options');
    });
    expect(mockLoaded).toEqual([]);
    class Planted1795999999999 implements MigrationInterface {
      async up(): Promise<void> {}
      async down(): Promise<void> {}
    }
    expect(options!.dataSourceOptions('postgres://localhost/db', 1, [Planted1795999999999]).migrations).toEqual([Planted1795999999999]);
  });
});
