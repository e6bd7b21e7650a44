// Two projects: unit tests beside the code, end-to-end tests (in test/, and a plugin's in its folder) against a real database.
// Workers are capped at 2 (the CI machine has 2 cores).
const common = {
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
  moduleFileExtensions: ['ts', 'js', 'json'],
  moduleNameMapper: { '^@libs/(.*)$': '<rootDir>/libs/$1' },
};

// End-to-end files that spawn servers or wait out real timeouts. `npm test` leaves them out
// (JEST_SLOW=skip), `npm run test:slow` runs only them (JEST_SLOW=only); a plain `npx jest <file>` runs
// any file. CI runs both commands.
const SLOW_E2E = ['route-fuzz', 'server-process', 'tracing', 'zero-downtime-migration', 'database-outage', 'replicas'];
const slowFile = `/test/(${SLOW_E2E.join('|')})\\.e2e-spec\\.ts$`;
const slowSelection = {
  skip: [slowFile],
  only: [`^(?!.*${slowFile})`],
}[process.env.JEST_SLOW ?? ''];

module.exports = {
  maxWorkers: 2,
  // Each e2e file loads the whole application into its worker, and a worker's heap keeps growing across
  // files until V8's limit: a worker above this after a file is replaced by a fresh one.
  workerIdleMemoryLimit: '2GB',
  testTimeout: 60000,
  projects: [
    {
      ...common,
      displayName: 'unit',
      testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/libs/**/*.spec.ts', '<rootDir>/migrations/**/*.spec.ts'],
    },
    {
      ...common,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts', '<rootDir>/src/plugins/**/*.e2e-spec.ts'],
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
      // Setup hooks get a boot's time, a failed setup fails the file once, no boot outlives its file.
      testEnvironment: '<rootDir>/test/support/e2e-environment.ts',
      testPathIgnorePatterns: ['/node_modules/', ...(slowSelection ?? [])],
    },
  ],
};
