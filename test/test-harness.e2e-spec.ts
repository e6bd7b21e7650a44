import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const ROOT = join(__dirname, '..');

interface JestReport {
  numFailedTests: number;
  numPendingTests: number;
  testResults: Array<{ message: string; assertionResults: Array<{ fullName: string; status: string; failureMessages: string[] }> }>;
}

/** Runs jest on one fixture of test/fixtures/harness under the e2e environment; its JSON report. */
async function runFixture(name: string, env: Record<string, string>): Promise<JestReport> {
  const work = mkdtempSync(join(tmpdir(), 'harness-'));
  const config = {
    rootDir: ROOT,
    testEnvironment: '<rootDir>/test/support/e2e-environment.ts',
    transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
    moduleFileExtensions: ['ts', 'js', 'json'],
    testMatch: [`<rootDir>/test/fixtures/harness/${name}.fixture.ts`],
  };
  try {
    await promisify(execFile)(
      process.execPath,
      [
        join(ROOT, 'node_modules', 'jest', 'bin', 'jest.js'),
        '--config',
        JSON.stringify(config),
        '--json',
        `--outputFile=${join(work, 'report.json')}`,
      ],
      { cwd: ROOT, env: { ...process.env, ...env } },
    ).catch(() => undefined); // the fixture fails on purpose; the report says how
    return JSON.parse(readFileSync(join(work, 'report.json'), 'utf8')) as JestReport;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

describe('the end-to-end test environment', () => {
  it('reports a setup that outlived its hook once, skips its tests, and closes the app it booted late', async () => {
    const marker = join(mkdtempSync(join(tmpdir(), 'harness-marker-')), 'closed');
    try {
      const report = await runFixture('setup-outlives-hook', { HARNESS_MARKER: marker });
      const [file] = report.testResults;
      expect(file.assertionResults.map((test) => [test.fullName, test.status])).toEqual([
        ['a file whose boot outlives its hook a block set up from the app first', 'failed'],
        ['a file whose boot outlives its hook second', 'pending'],
        ['a file whose boot outlives its hook third', 'pending'],
      ]);
      const [failure] = file.assertionResults[0].failureMessages;
      expect(failure).toMatch(
        /^Error: beforeAll of "a file whose boot outlives its hook" failed, so its 3 tests did not run:\nExceeded timeout of 200 ms/,
      );
      // The consequences (the nested setup and the afterAll reading an app that never came) are not reported.
      expect(file.assertionResults[0].failureMessages).toHaveLength(1);
      expect(file.message).not.toMatch(/reading 'close'|reading 'name'|torn down/);
      // The boot that finished after its hook gave up was awaited and closed before the file ended.
      expect(existsSync(marker) && readFileSync(marker, 'utf8')).toBe('closed');
    } finally {
      rmSync(join(marker, '..'), { recursive: true, force: true });
    }
  });
});
