import { CREDENTIAL_CACHE_MAX_AGE_MS, CredentialCache } from './credential-cache';

describe('CredentialCache', () => {
  let checks: number;
  const check = (userId: number) => async () => {
    checks++;
    return { userId };
  };
  const owner = (value: { userId: number }) => value.userId;

  beforeEach(() => {
    checks = 0;
  });

  afterEach(() => {
    jest.useRealTimers();
  });

  function listening(): CredentialCache {
    const cache = new CredentialCache();
    cache.listening();
    return cache;
  }

  it('keeps a passed check only while notifications are heard', async () => {
    const deaf = new CredentialCache();
    await deaf.through('a', check(1), owner);
    await deaf.through('a', check(1), owner);
    expect(checks).toBe(2);

    const cache = listening();
    await cache.through('a', check(1), owner);
    await cache.through('a', check(1), owner);
    expect(checks).toBe(3);
    cache.deaf();
    await cache.through('a', check(1), owner);
    await cache.through('a', check(1), owner);
    expect(checks).toBe(5);
  });

  it("drops a user's entries on a notification naming them, and every entry on '*'", async () => {
    const cache = listening();
    await cache.through('a', check(1), owner);
    await cache.through('b', check(2), owner);
    cache.notified('1');
    await cache.through('a', check(1), owner);
    await cache.through('b', check(2), owner);
    expect(checks).toBe(3);
    cache.notified('*');
    await cache.through('a', check(1), owner);
    await cache.through('b', check(2), owner);
    expect(checks).toBe(5);
  });

  it('does not keep a check that was running when a notification arrived', async () => {
    const cache = listening();
    await cache.through(
      'a',
      async () => {
        cache.notified('1');
        return check(1)();
      },
      owner,
    );
    await cache.through('a', check(1), owner);
    expect(checks).toBe(2);
  });

  it('never keeps a refusal', async () => {
    const cache = listening();
    const refuse = async () => {
      checks++;
      throw new Error('refused');
    };
    await expect(cache.through('a', refuse, owner)).rejects.toThrow('refused');
    await expect(cache.through('a', refuse, owner)).rejects.toThrow('refused');
    expect(checks).toBe(2);
  });

  it('serves an entry for at most its maximum age', async () => {
    jest.useFakeTimers({ now: 1_000_000 });
    const cache = listening();
    await cache.through('a', check(1), owner);
    jest.setSystemTime(1_000_000 + CREDENTIAL_CACHE_MAX_AGE_MS - 1);
    await cache.through('a', check(1), owner);
    expect(checks).toBe(1);
    jest.setSystemTime(1_000_000 + CREDENTIAL_CACHE_MAX_AGE_MS);
    await cache.through('a', check(1), owner);
    expect(checks).toBe(2);
  });
});
