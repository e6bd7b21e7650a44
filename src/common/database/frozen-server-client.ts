import { Client } from 'pg';

const READ_TIMEOUT = 'Query read timeout';

/**
 * A pg client that drops its connection when a query gets no answer within `query_timeout`. pg
 * leaves the unanswered query active, so whatever the caller sends next on that connection (the
 * ROLLBACK of a failed transaction, say) would wait out a read timeout of its own; dropping the
 * connection fails those at once, and the pool replaces it.
 */
export class FrozenServerClient extends Client {
  constructor(config?: ConstructorParameters<typeof Client>[0]) {
    super(config);
    const query = this.query.bind(this) as (...args: unknown[]) => unknown;
    const dropIfFrozen = (error: unknown): void => {
      if (error instanceof Error && error.message === READ_TIMEOUT) this.connection.stream.destroy();
    };
    // Assigned per instance: pg's query has a dozen overloads a subclass method would have to restate.
    this.query = ((...args: unknown[]) => {
      const callback = args.at(-1);
      if (typeof callback === 'function') {
        args[args.length - 1] = (error: unknown, result: unknown) => {
          dropIfFrozen(error);
          callback(error, result);
        };
        return query(...args);
      }
      const result = query(...args);
      if (result instanceof Promise) {
        return result.catch((error: unknown) => {
          dropIfFrozen(error);
          throw error;
        });
      }
      return result;
    }) as Client['query'];
  }
}
