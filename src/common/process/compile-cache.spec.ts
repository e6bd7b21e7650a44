import { enableCompileCache } from './compile-cache';

describe('enableCompileCache', () => {
  it('turns the cache on where the runtime has it', () => {
    const enable = jest.fn(() => ({ status: 1 }));
    expect(enableCompileCache(enable)).toBe(true);
    expect(enable).toHaveBeenCalledTimes(1);
  });

  it('does nothing on a runtime without it (Node 20), and survives one that throws', () => {
    expect(enableCompileCache(undefined)).toBe(false);
    expect(
      enableCompileCache(() => {
        throw new Error('read-only file system');
      }),
    ).toBe(false);
  });
});
