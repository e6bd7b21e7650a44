import type { AppConfig } from '../../common/config/app-config';
import { TooManyRequestsError } from '../../common/errors/common-errors';
import { PasswordHasher } from './password-hasher';

describe('PasswordHasher', () => {
  it('runs AUTH_HASH_CONCURRENCY hashes at once, queues AUTH_HASH_QUEUE more and refuses the next with 429', async () => {
    const hasher = new PasswordHasher({ authHashConcurrency: 1, authHashQueue: 1 } as AppConfig);
    const hash = await hasher.hash('correct horse');
    const attempts = [hasher.verify(hash, 'correct horse'), hasher.verify(hash, 'wrong'), hasher.verify(hash, 'correct horse')];
    const settled = await Promise.allSettled(attempts);
    expect(settled.slice(0, 2)).toEqual([
      { status: 'fulfilled', value: true },
      { status: 'fulfilled', value: false },
    ]);
    expect(settled[2].status).toBe('rejected');
    const refusal = (settled[2] as PromiseRejectedResult).reason as TooManyRequestsError;
    expect(refusal).toBeInstanceOf(TooManyRequestsError);
    expect(refusal.headers()).toEqual({ 'Retry-After': '1' });
    // The slots come back: once the burst is over, hashes run again.
    expect(await Promise.all([hasher.verify(hash, 'correct horse'), hasher.verifyNothing('x')])).toEqual([true, false]);
  });
});
