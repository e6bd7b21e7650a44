import { formatLogLine } from './terse-format';
import { createRootLogger, resolveLogFormat } from './root-logger';

describe('pretty log format', () => {
  it('is the default on a terminal, JSON otherwise, and LOG_FORMAT decides when set', () => {
    expect(resolveLogFormat(undefined, true)).toBe('pretty');
    expect(resolveLogFormat(undefined, false)).toBe('json');
    expect(resolveLogFormat('json', true)).toBe('json');
    expect(resolveLogFormat('pretty', false)).toBe('pretty');
  });

  it('writes one terse line per entry: clock time, level, message, then the other fields as key=value', () => {
    const line = formatLogLine(
      JSON.stringify({
        level: 'info',
        time: '2026-01-02T03:04:05.678Z',
        service: 'pki-inventory',
        port: 8000,
        url: 'http://localhost:8000',
        msg: 'server listening',
      }),
    );
    expect(line).toMatch(/^\d\d:\d\d:\d\d\.678 INFO {2}server listening port=8000 url=http:\/\/localhost:8000\n$/);
  });

  it('does not repeat a field the message already spells out', () => {
    const line = formatLogLine(
      JSON.stringify({ level: 'info', url: 'http://localhost:8000', port: 8000, msg: 'listening on http://localhost:8000' }),
    );
    expect(line).toMatch(/ INFO {2}listening on http:\/\/localhost:8000 port=8000\n$/);
  });

  it('quotes values with spaces, shortens long ones, and prints an error with its stack below the line', () => {
    const line = formatLogLine(
      JSON.stringify({
        level: 'error',
        time: '2026-01-02T03:04:05.678Z',
        msg: 'request failed',
        path: '/a b',
        migrations: Array.from({ length: 40 }, (_, i) => `Migration${i}`),
        err: { message: 'boom', stack: 'Error: boom\n    at here' },
      }),
    );
    const [head, ...stack] = line.trimEnd().split('\n');
    expect(head).toContain('ERROR request failed: boom path="/a b" migrations=["Migration0",');
    expect(head).toMatch(/…$/);
    expect(stack).toEqual(['Error: boom', '    at here']);
  });

  it('is what the root logger writes when asked for pretty', () => {
    const written: string[] = [];
    const original = process.stdout.write.bind(process.stdout);
    process.stdout.write = ((text: string) => written.push(text) > 0) as typeof process.stdout.write;
    try {
      createRootLogger('info', undefined, 'pretty').info({ port: 1 }, 'hello');
    } finally {
      process.stdout.write = original;
    }
    expect(written).toHaveLength(1);
    expect(written[0]).toMatch(/^\d\d:\d\d:\d\d\.\d{3} INFO {2}hello port=1\n$/);
  });
});
