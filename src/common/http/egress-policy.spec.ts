import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  allowEntryProblem,
  EgressDeniedError,
  EgressPolicy,
  EgressResponseTooLargeError,
  EgressTimeoutError,
  refusedRange,
} from './egress-policy';

describe('refusedRange', () => {
  it.each([
    ['0.0.0.0', '"this network"'],
    ['0.255.1.2', '"this network"'],
    ['10.0.0.1', 'private (10.0.0.0/8)'],
    ['10.255.255.255', 'private (10.0.0.0/8)'],
    ['100.64.0.1', 'shared address space'],
    ['100.127.255.254', 'shared address space'],
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['169.254.169.254', 'link-local'],
    ['172.16.0.1', 'private (172.16.0.0/12)'],
    ['172.31.255.255', 'private (172.16.0.0/12)'],
    ['192.0.0.8', 'IETF protocol assignments'],
    ['192.0.2.10', 'documentation'],
    ['192.168.1.1', 'private (192.168.0.0/16)'],
    ['198.18.0.1', 'benchmarking'],
    ['198.19.255.1', 'benchmarking'],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.7', 'documentation'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
    ['::', 'unspecified'],
    ['::1', 'loopback (::1)'],
    ['::7f00:1', 'IPv4-compatible'],
    ['64:ff9b:1::a', 'local-use NAT64'],
    ['100::1', 'discard-only'],
    ['2001:db8::1', 'documentation (2001:db8::/32)'],
    ['fc00::1', 'unique local'],
    ['fd12:3456::1', 'unique local'],
    ['fe80::1', 'link-local (fe80::/10)'],
    ['febf::1', 'link-local (fe80::/10)'],
    ['fec0::1', 'site-local'],
    ['ff02::1', 'multicast (ff00::/8)'],
    ['[::1]', 'loopback (::1)'],
    ['fe80::1%eth0', 'link-local (fe80::/10)'],
  ])('refuses %s (%s)', (address, name) => {
    expect(refusedRange(address)).toContain(name);
  });

  it.each([
    ['::ffff:127.0.0.1', 'loopback (127.0.0.0/8)'],
    ['::ffff:7f00:1', 'loopback (127.0.0.0/8)'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['::ffff:a00:1', 'private (10.0.0.0/8)'],
    ['64:ff9b::a9fe:a9fe', 'link-local'],
    ['64:ff9b::192.168.0.1', 'private (192.168.0.0/16)'],
    ['2002:7f00:1::1', 'loopback'],
    ['2002:a9fe:a9fe::', 'link-local'],
  ])('judges %s by the IPv4 address it embeds (%s)', (address, name) => {
    expect(refusedRange(address)).toContain(name);
  });

  it.each([
    '1.1.1.1',
    '9.255.255.255',
    '11.0.0.1',
    '100.63.255.255',
    '100.128.0.0',
    '172.15.255.255',
    '172.32.0.0',
    '192.167.255.255',
    '192.169.0.0',
    '223.255.255.255',
    '2606:4700:4700::1111',
    '2a00:1450::1',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
  ])('allows the public address %s', (address) => {
    expect(refusedRange(address)).toBeUndefined();
  });

  it('throws on a host name', () => {
    expect(() => refusedRange('localhost')).toThrow(TypeError);
  });
});

describe('allowEntryProblem', () => {
  it.each(['10.0.0.0/8', '127.0.0.1', '::1', 'fd00::/8', '0.0.0.0/0', 'mail-worker', 'hooks.corp.example'])('accepts %s', (entry) => {
    expect(allowEntryProblem(entry)).toBeUndefined();
  });

  it.each(['10.0.0.0/33', '::1/129', '10.0.0.0/8/1', 'http://hooks.example', 'hooks..example', 'name/8', '*.example'])(
    'refuses %s',
    (entry) => {
      expect(allowEntryProblem(entry)).toBeDefined();
    },
  );
});

describe('EgressPolicy.addressProblem and urlProblem', () => {
  const policy = new EgressPolicy({ allow: ['10.1.0.0/16', '192.168.5.5', 'hooks.internal.test'], caDirectory: undefined });

  it('allows addresses inside EGRESS_ALLOW, and IPv4-mapped forms of them', () => {
    expect(policy.addressProblem('10.1.2.3')).toBeUndefined();
    expect(policy.addressProblem('192.168.5.5')).toBeUndefined();
    expect(policy.addressProblem('::ffff:10.1.2.3')).toBeUndefined();
    expect(policy.addressProblem('10.2.0.1')).toBe('10.2.0.1 is a private (10.0.0.0/8) address, which EGRESS_ALLOW does not list');
    expect(policy.addressProblem('192.168.5.6')).toBeDefined();
  });

  it('allows any address of a listed host name, ignoring case', () => {
    expect(policy.addressProblem('127.0.0.1', 'Hooks.Internal.Test')).toBeUndefined();
    expect(policy.addressProblem('127.0.0.1', 'other.internal.test')).toBeDefined();
  });

  it('judges literal addresses in URLs, and leaves names to the connection', () => {
    const strict = new EgressPolicy({ allow: [], caDirectory: undefined });
    expect(strict.urlProblem('http://127.0.0.1:8080/hook')).toContain('loopback');
    expect(strict.urlProblem('http://169.254.169.254/latest/meta-data/')).toContain('link-local');
    expect(strict.urlProblem('http://[::1]/')).toContain('loopback');
    expect(strict.urlProblem('http://[::ffff:169.254.169.254]/')).toContain('link-local');
    // WHATWG URL parsing turns these spellings of 127.0.0.1 into the dotted form before they are judged.
    expect(strict.urlProblem('http://2130706433/')).toContain('loopback');
    expect(strict.urlProblem('http://0x7f.1/')).toContain('loopback');
    expect(strict.urlProblem('ftp://example.com/')).toBe('not an http:// or https:// URL');
    expect(strict.urlProblem('https://hooks.example.com/x')).toBeUndefined();
    expect(strict.urlProblem('http://localhost/')).toBeUndefined();
  });
});

describe('EgressPolicy CA files', () => {
  let root: string;
  let folder: string;

  beforeAll(() => {
    root = realpathSync(mkdtempSync(join(tmpdir(), 'egress-ca-')));
    folder = join(root, 'cas');
    mkdirSync(join(folder, 'team'), { recursive: true });
    writeFileSync(join(folder, 'team', 'ca.pem'), 'PEM');
    writeFileSync(join(root, 'secret'), 'not a CA');
    symlinkSync(join(root, 'secret'), join(folder, 'link.pem'));
    symlinkSync(join(folder, 'team', 'ca.pem'), join(folder, 'inner-link.pem'));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('refuses every CA file when WEBHOOK_CA_DIR is unset', () => {
    const policy = new EgressPolicy({ allow: [], caDirectory: undefined });
    expect(policy.caFileProblem(join(folder, 'team', 'ca.pem'))).toContain('WEBHOOK_CA_DIR is unset');
  });

  it('accepts a file inside the folder, by absolute or relative path, and a link that stays inside', async () => {
    const policy = new EgressPolicy({ allow: [], caDirectory: folder });
    expect(policy.caFileProblem(join(folder, 'team', 'ca.pem'))).toBeUndefined();
    expect(policy.caFileProblem('team/ca.pem')).toBeUndefined();
    expect(policy.caFileProblem('inner-link.pem')).toBeUndefined();
    await expect(policy.readCaFile('team/ca.pem')).resolves.toEqual(Buffer.from('PEM'));
  });

  it('refuses /etc/shadow, a path climbing out with .., a link leading out, a folder and a missing file', async () => {
    const policy = new EgressPolicy({ allow: [], caDirectory: folder });
    const outside = `must name a file inside the CA folder ${folder}`;
    expect(policy.caFileProblem('/etc/shadow')).toBe(outside);
    expect(policy.caFileProblem(join(folder, '..', 'secret'))).toBe(outside);
    expect(policy.caFileProblem('../secret')).toBe(outside);
    expect(policy.caFileProblem(folder)).toBe(outside);
    expect(policy.caFileProblem('link.pem')).toBe(outside);
    expect(policy.caFileProblem('team')).toBe('not a file');
    expect(policy.caFileProblem('missing.pem')).toBe('no such file in the CA folder');
    await expect(policy.readCaFile('/etc/shadow')).rejects.toThrow(EgressDeniedError);
  });
});

describe('EgressPolicy.request', () => {
  const servers: Server[] = [];
  const serve = async (handler: Parameters<typeof createServer>[1]): Promise<string> => {
    const server = createServer(handler);
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };
  afterEach(async () => {
    for (const server of servers.splice(0)) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
  const loopback = new EgressPolicy({ allow: ['127.0.0.0/8'], caDirectory: undefined });
  const options = { timeoutMs: 2_000, maxResponseBytes: 1024, overflow: 'fail' as const };

  it('answers the status, headers and body', async () => {
    const url = await serve((_request, response) => response.writeHead(201, { 'x-answer': 'yes' }).end('hello'));
    const response = await loopback.request(url, options);
    expect(response.status).toBe(201);
    expect(response.headers['x-answer']).toBe('yes');
    expect(response.body.toString()).toBe('hello');
  });

  it('does not follow a redirect, even to an allowed address', async () => {
    let followed = 0;
    const target = await serve((_request, response) => {
      followed++;
      response.end('inside');
    });
    const url = await serve((_request, response) => response.writeHead(302, { location: target }).end());
    const response = await loopback.request(url, options);
    expect(response.status).toBe(302);
    expect(followed).toBe(0);
  });

  it('fails on an answer over the limit, announced or streamed, and truncates when asked', async () => {
    const announced = await serve((_request, response) => response.end('x'.repeat(4096)));
    await expect(loopback.request(announced, options)).rejects.toThrow(EgressResponseTooLargeError);
    const streamed = await serve((_request, response) => {
      response.write('x'.repeat(800));
      response.end('y'.repeat(800));
    });
    await expect(loopback.request(streamed, options)).rejects.toThrow(EgressResponseTooLargeError);
    const truncated = await loopback.request(streamed, { ...options, overflow: 'truncate' });
    expect(truncated.body.toString()).toBe(`${'x'.repeat(800)}${'y'.repeat(224)}`);
  });

  it('gives up after the timeout', async () => {
    const url = await serve(() => undefined);
    await expect(loopback.request(url, { ...options, timeoutMs: 200 })).rejects.toThrow(EgressTimeoutError);
  });

  it('connects only to the allowed addresses a name resolves to, and refuses a name with none', async () => {
    const url = new URL(await serve((_request, response) => response.end('ok')));
    const resolveAll = (hostname: string) =>
      Promise.resolve(
        hostname === 'mixed.test'
          ? [
              { address: '169.254.169.254', family: 4 },
              { address: '127.0.0.1', family: 4 },
            ]
          : [{ address: '169.254.169.254', family: 4 }],
      );
    const policy = new EgressPolicy({ allow: ['127.0.0.0/8'], caDirectory: undefined }, resolveAll);
    const mixed = await policy.request(`http://mixed.test:${url.port}/`, options);
    expect(mixed.body.toString()).toBe('ok');
    await expect(policy.request(`http://metadata.test:${url.port}/`, options)).rejects.toThrow(
      new EgressDeniedError(
        'metadata.test may not be reached: 169.254.169.254 is a link-local (169.254.0.0/16) address, which EGRESS_ALLOW does not list',
      ),
    );
  });

  it('refuses a name whose resolver answers something that is not an address', async () => {
    const policy = new EgressPolicy({ allow: [], caDirectory: undefined }, () => Promise.resolve([{ address: 'bogus', family: 4 }]));
    await expect(policy.request('http://odd.test/', options)).rejects.toThrow(
      new EgressDeniedError('odd.test may not be reached: the resolver answered "bogus", which is not an IP address'),
    );
  });

  it('refuses localhost by default, resolved by the system', async () => {
    const url = new URL(await serve((_request, response) => response.end('ok')));
    const strict = new EgressPolicy({ allow: [], caDirectory: undefined });
    await expect(strict.request(`http://localhost:${url.port}/`, options)).rejects.toThrow(EgressDeniedError);
    await expect(strict.request(url.href, options)).rejects.toThrow(EgressDeniedError);
  });
});
