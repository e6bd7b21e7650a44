/**
 * Runs at most `limit` tasks at once; the others wait, in the order they asked. One is made per
 * GraphQL request to bound its root resolvers (see buildGraphqlSchema).
 */
export class ConcurrencyLimit {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly limit: number) {
    if (!Number.isSafeInteger(limit) || limit < 1) throw new RangeError(`a concurrency limit must be a positive integer (got ${limit})`);
  }

  async run<T>(task: () => T | Promise<T>): Promise<T> {
    if (this.running >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running += 1;
    try {
      return await task();
    } finally {
      // The slot passes straight to the next waiter, so `running` stays counted for it.
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    }
  }
}
