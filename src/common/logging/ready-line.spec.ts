import { readConfig } from '../config/app-config';
import { readyLine, serverUrl } from './ready-line';

describe('ready line', () => {
  it('names a wildcard address as localhost and brackets an IPv6 literal', () => {
    expect(serverUrl('0.0.0.0', 8000)).toBe('http://localhost:8000');
    expect(serverUrl('::', 8000)).toBe('http://localhost:8000');
    expect(serverUrl('127.0.0.1', 8001)).toBe('http://127.0.0.1:8001');
    expect(serverUrl('::1', 8000)).toBe('http://[::1]:8000');
  });

  it('gives the URL and the docs URL, and while there is no user how to create the first', () => {
    const open = readyLine(readConfig({}).config, false);
    expect(open.fields).toEqual({ url: 'http://localhost:8000', docs_url: 'http://localhost:8000/docs' });
    expect(open.message).toBe(
      'server listening on http://localhost:8000, API docs at http://localhost:8000/docs; no users yet: anyone who reaches the port can ' +
        'create the first, any role, with POST http://localhost:8000/api/v1/users/ (or pki user create); set BOOTSTRAP_TOKEN to require a token (README "First user")',
    );
    const guarded = readyLine(readConfig({ BOOTSTRAP_TOKEN: 'b'.repeat(24) }).config, false);
    expect(guarded.message).toContain(
      'no users yet: create the first with POST http://localhost:8000/api/v1/users/ (or pki user create) and the header X-Bootstrap-Token',
    );
    expect(guarded.message).not.toContain('b'.repeat(24));
  });

  it('says only where it listens once a user exists, and leaves the docs out when they are off', () => {
    expect(readyLine(readConfig({ HOST: '127.0.0.1', PORT: '9000', ENABLE_DOCS: 'false' }).config, true)).toEqual({
      fields: { url: 'http://127.0.0.1:9000' },
      message: 'server listening on http://127.0.0.1:9000',
    });
  });
});
