import { QueryFailedError } from 'typeorm';
import { isDatabaseUnavailable } from './database-unavailable';

function withCode(message: string, code: string, extra: Record<string, unknown> = {}): Error {
  return Object.assign(new Error(message), { code, ...extra });
}

describe('isDatabaseUnavailable', () => {
  it.each([
    ['a refused connect', withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED', { syscall: 'connect' })],
    ['a missing Unix socket', withCode('connect ENOENT /data/pg/.s.PGSQL.5432', 'ENOENT', { syscall: 'connect' })],
    ['a dropped connection', new Error('Connection terminated unexpectedly')],
    ['a pool acquire timeout', new Error('timeout exceeded when trying to connect')],
    ['a closed PGlite', new Error('PGlite is closed')],
    ['a server shutting down', withCode('terminating connection due to administrator command', '57P01')],
    ['a server starting up', withCode('the database system is starting up', '57P03')],
    ['a connection exception', withCode('connection failure', '08006')],
    ['a statement timeout', withCode('canceling statement due to statement timeout', '57014')],
    ['a lock timeout', withCode('canceling statement due to lock timeout', '55P03')],
    ['one wrapped by TypeORM', new QueryFailedError('SELECT 1', [], new Error('Connection terminated unexpectedly'))],
    ['one among an AggregateError', new AggregateError([withCode('connect ECONNREFUSED ::1:5432', 'ECONNREFUSED')], '')],
  ])('recognises %s', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['a unique violation', new QueryFailedError('INSERT', [], withCode('duplicate key', '23505'))],
    ['a syntax error', withCode('syntax error at or near "x"', '42601')],
    ['a plain bug', new TypeError('cannot read properties of undefined')],
    ['a file not found outside connect', withCode('ENOENT: no such file', 'ENOENT', { syscall: 'open' })],
    ['no error at all', undefined],
  ])('leaves %s alone', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});
