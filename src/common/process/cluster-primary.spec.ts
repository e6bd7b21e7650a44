import { availableParallelism } from 'node:os';
import { RestartPolicy, serverProcessCount } from './cluster-primary';

describe('RestartPolicy', () => {
  it('gives up when the first worker never listens, as a single process exits 1', () => {
    expect(new RestartPolicy().exited(false)).toEqual({ action: 'give-up', reason: 'first-start' });
  });

  it('replaces a crashed worker after a delay that doubles per crash in a row, capped, and resets once a worker is stable', () => {
    const policy = new RestartPolicy();
    expect(policy.listening()).toBe(true);
    expect(policy.listening()).toBe(false);
    const delays = Array.from({ length: 9 }, () => {
      const decision = policy.exited(true);
      return decision.action === 'replace' ? decision.delayMs : -1;
    });
    expect(delays).toEqual([500, 1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
    policy.stable();
    expect(policy.exited(true)).toEqual({ action: 'replace', delayMs: 500 });
  });

  it('gives up after five replacements in a row die before listening, and counts afresh after one listens', () => {
    const policy = new RestartPolicy();
    policy.listening();
    for (let i = 0; i < 4; i++) expect(policy.exited(false).action).toBe('replace');
    policy.listening();
    for (let i = 0; i < 4; i++) expect(policy.exited(false).action).toBe('replace');
    expect(policy.exited(false)).toEqual({ action: 'give-up', reason: 'crash-loop' });
  });
});

describe('serverProcessCount', () => {
  it('is WEB_CONCURRENCY, or one per CPU, with a PostgreSQL server and always one with the embedded database', () => {
    const databaseUrl = 'postgres://db/pki';
    expect(serverProcessCount({ databaseUrl, webConcurrency: 3 })).toBe(3);
    expect(serverProcessCount({ databaseUrl, webConcurrency: undefined })).toBe(availableParallelism());
    expect(serverProcessCount({ databaseUrl: undefined, webConcurrency: 4 })).toBe(1);
  });
});
