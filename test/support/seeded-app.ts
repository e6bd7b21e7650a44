import { Client } from 'pg';
import { ApiClient, seedIdentities } from './api-client';
import { startTestApp, TestApp, TestAppOptions } from './test-app';

export type World = Awaited<ReturnType<typeof seedIdentities>>;

export interface SeededApp {
  testApp: TestApp;
  api: ApiClient;
  /** A direct connection to the app's database, for asserting stored state. */
  db: Client;
  w: World;
}

/**
 * The app on a fresh database, populated by {@link seedIdentities}. Login rate limiting is relaxed
 * unless `env` says otherwise, because these files log in many times from one address.
 */
export async function startSeededApp(env: Record<string, string> = {}, options: Omit<TestAppOptions, 'env'> = {}): Promise<SeededApp> {
  const testApp = await startTestApp({
    ...options,
    env: { AUTH_RATE_LIMIT: '1000/minute', AUTH_ADDRESS_RATE_LIMIT: '1000/minute', ...env },
  });
  const api = new ApiClient(testApp.baseUrl);
  const db = new Client({ connectionString: testApp.database.url });
  // Closing the app drops its database, which would break this connection were it still open: close
  // it first, also when the app is closed by the harness (a setup that failed or timed out).
  const closeApp = testApp.close.bind(testApp);
  testApp.close = async () => {
    await db.end();
    await closeApp();
  };
  await db.connect();
  return { testApp, api, db, w: await seedIdentities(api) };
}

interface Problem {
  loc: Array<string | number>;
  msg: string;
  type: string;
}

/** The locations named by a 400 validation body (fails the test when the body is not a problem list). */
export function problemLocations(body: { detail: unknown }): Array<Array<string | number>> {
  expect(Array.isArray(body.detail)).toBe(true);
  const problems = body.detail as Problem[];
  for (const problem of problems) {
    expect(problem).toEqual({ loc: expect.any(Array), msg: expect.any(String), type: expect.any(String) });
  }
  return problems.map((problem) => problem.loc);
}
