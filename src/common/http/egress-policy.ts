/**
 * The egress policy: every request the server makes on its own behalf to a URL a user chose (webhooks, IRR
 * generators, SNS envelopes) goes through {@link EgressPolicy.request}. Addresses of the loopback, link-local,
 * private, unique-local, shared (CGNAT), multicast and reserved ranges are refused unless EGRESS_ALLOW lists them
 * (or the host name); IPv6 addresses embedding an IPv4 address (IPv4-mapped, NAT64, 6to4) are judged by that
 * address. A host name is resolved once, every address checked, and the connection made to a checked address, so
 * a name that resolves elsewhere on a second lookup (DNS rebinding) gains nothing. Redirects are never followed.
 *
 * Framework-free: node:http / node:https with a checking `lookup`.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { realpathSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { request as httpRequest, type IncomingHttpHeaders, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { isAbsolute, resolve, sep } from 'node:path';

export interface EgressSettings {
  /** EGRESS_ALLOW: CIDRs, addresses and host names that may be reached although the ranges above refuse them. */
  readonly allow: readonly string[];
  /** WEBHOOK_CA_DIR, resolved: the only folder whose files a webhook's ca_file_path may name; undefined: none. */
  readonly caDirectory: string | undefined;
}

/** dns.lookup with `all: true`: injectable so that tests can make a name resolve anywhere. */
export type ResolveAll = (hostname: string, family: number) => Promise<LookupAddress[]>;

const resolveWithSystem: ResolveAll = (hostname, family) =>
  new Promise((done, fail) => dnsLookup(hostname, { all: true, family }, (error, addresses) => (error ? fail(error) : done(addresses))));

/** A request the policy refuses: its target (or every address its name resolves to) is in a refused range. */
export class EgressDeniedError extends Error {
  override readonly name = 'EgressDeniedError';
}

/** An answer longer than the caller's limit, with `overflow: 'fail'`. */
export class EgressResponseTooLargeError extends Error {
  override readonly name = 'EgressResponseTooLargeError';
}

/** No complete answer within the caller's timeout. */
export class EgressTimeoutError extends Error {
  override readonly name = 'EgressTimeoutError';
}

type Range = readonly [network: string, bits: number, name: string];

const REFUSED_IPV4: readonly Range[] = [
  ['0.0.0.0', 8, '"this network" (0.0.0.0/8)'],
  ['10.0.0.0', 8, 'private (10.0.0.0/8)'],
  ['100.64.0.0', 10, 'shared address space (100.64.0.0/10)'],
  ['127.0.0.0', 8, 'loopback (127.0.0.0/8)'],
  ['169.254.0.0', 16, 'link-local (169.254.0.0/16)'],
  ['172.16.0.0', 12, 'private (172.16.0.0/12)'],
  ['192.0.0.0', 24, 'IETF protocol assignments (192.0.0.0/24)'],
  ['192.0.2.0', 24, 'documentation (192.0.2.0/24)'],
  ['192.168.0.0', 16, 'private (192.168.0.0/16)'],
  ['198.18.0.0', 15, 'benchmarking (198.18.0.0/15)'],
  ['198.51.100.0', 24, 'documentation (198.51.100.0/24)'],
  ['203.0.113.0', 24, 'documentation (203.0.113.0/24)'],
  ['224.0.0.0', 4, 'multicast (224.0.0.0/4)'],
  // Includes the broadcast address 255.255.255.255.
  ['240.0.0.0', 4, 'reserved (240.0.0.0/4)'],
];

// More specific ranges first: the first match names the refusal.
const REFUSED_IPV6: readonly Range[] = [
  ['::', 128, 'unspecified (::)'],
  ['::1', 128, 'loopback (::1)'],
  ['::', 96, 'IPv4-compatible (::/96)'],
  ['64:ff9b:1::', 48, 'local-use NAT64 (64:ff9b:1::/48)'],
  ['100::', 64, 'discard-only (100::/64)'],
  ['2001:db8::', 32, 'documentation (2001:db8::/32)'],
  ['fc00::', 7, 'unique local (fc00::/7)'],
  ['fe80::', 10, 'link-local (fe80::/10)'],
  ['fec0::', 10, 'site-local (fec0::/10)'],
  ['ff00::', 8, 'multicast (ff00::/8)'],
];

/** IPv6 ranges that carry an IPv4 address: the 16-bit group where its 32 bits start. */
const EMBEDDING_IPV6: ReadonlyArray<readonly [network: string, bits: number, firstGroup: number]> = [
  ['::ffff:0:0', 96, 6],
  ['64:ff9b::', 96, 6],
  ['2002::', 16, 1],
];

const subnet = (network: string, bits: number, family: 'ipv4' | 'ipv6'): BlockList => {
  const list = new BlockList();
  list.addSubnet(network, bits, family);
  return list;
};

const REFUSED = [
  ...REFUSED_IPV4.map(([network, bits, name]) => ({ list: subnet(network, bits, 'ipv4'), family: 'ipv4' as const, name })),
  ...REFUSED_IPV6.map(([network, bits, name]) => ({ list: subnet(network, bits, 'ipv6'), family: 'ipv6' as const, name })),
];
const EMBEDDING = EMBEDDING_IPV6.map(([network, bits, firstGroup]) => ({ list: subnet(network, bits, 'ipv6'), firstGroup }));

/** The eight 16-bit groups of an IPv6 address (WHATWG URL parsing normalises the text first). */
function ipv6Groups(address: string): number[] {
  const normalised = new URL(`http://[${address}]/`).hostname.slice(1, -1);
  const [head, tail] = normalised.includes('::') ? normalised.split('::') : [normalised, undefined];
  const parse = (part: string | undefined) => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const first = parse(head);
  const last = parse(tail);
  return [...first, ...new Array<number>(8 - first.length - last.length).fill(0), ...last];
}

/** The IPv4 address an IPv6 address embeds (IPv4-mapped, NAT64, 6to4), or undefined. */
function embeddedIpv4(address: string): string | undefined {
  const embedding = EMBEDDING.find(({ list }) => list.check(address, 'ipv6'));
  if (!embedding) return undefined;
  const groups = ipv6Groups(address);
  const high = groups[embedding.firstGroup];
  const low = groups[embedding.firstGroup + 1];
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}

/** The address without URL brackets or an IPv6 zone (`fe80::1%eth0`, as resolvers may answer). */
const bareAddress = (address: string): string => address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');

/**
 * Why an address must not be reached (the refused range's name, e.g. "loopback (127.0.0.0/8)"), or undefined for a
 * public address. IPv6 addresses that embed an IPv4 address are judged by it. Not an address: a TypeError.
 */
export function refusedRange(address: string): string | undefined {
  const bare = bareAddress(address);
  const family = isIP(bare);
  if (family === 0) throw new TypeError(`not an IP address: ${JSON.stringify(address)}`);
  if (family === 6) {
    const ipv4 = embeddedIpv4(bare);
    if (ipv4 !== undefined) {
      const range = refusedRange(ipv4);
      return range === undefined ? undefined : `${range}, embedded in ${bare}`;
    }
  }
  const type = family === 4 ? 'ipv4' : 'ipv6';
  return REFUSED.find((range) => range.family === type && range.list.check(bare, type))?.name;
}

const HOST_NAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

/** Why an EGRESS_ALLOW entry is unusable, or undefined: an address, a CIDR or a host name. */
export function allowEntryProblem(entry: string): string | undefined {
  const [address, bits, ...rest] = entry.split('/');
  if (isIP(address) !== 0) {
    const max = isIP(address) === 4 ? 32 : 128;
    if (rest.length === 0 && (bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= max))) return undefined;
    return `${JSON.stringify(entry)} is not an address or CIDR (prefix length 0–${max})`;
  }
  if (bits === undefined && HOST_NAME.test(entry.toLowerCase())) return undefined;
  return `${JSON.stringify(entry)} is neither an address, a CIDR nor a host name`;
}

/** Why a configured WEBHOOK_CA_DIR is unusable, or undefined. */
export function caDirectoryProblem(directory: string): string | undefined {
  if (!isAbsolute(directory)) return `must be an absolute path (got ${JSON.stringify(directory)})`;
  try {
    if (!statSync(directory).isDirectory()) return `${directory} is not a folder`;
  } catch {
    return `${directory} does not exist or cannot be read`;
  }
  return undefined;
}

export interface EgressRequestOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: Buffer;
  /** Bounds the whole exchange, from resolving the name to the end of the answer. */
  timeoutMs: number;
  /** Longest answer read. */
  maxResponseBytes: number;
  /** Past maxResponseBytes: keep the first bytes and stop reading ('truncate'), or fail ('fail'). */
  overflow: 'truncate' | 'fail';
  /** Certificate checks (https only): off, or against these CAs instead of the system's. */
  rejectUnauthorized?: boolean;
  ca?: Buffer;
}

export interface EgressResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export class EgressPolicy {
  private readonly allowedAddresses = new BlockList();
  private readonly allowedHosts = new Set<string>();

  constructor(
    readonly settings: EgressSettings,
    private readonly resolveAll: ResolveAll = resolveWithSystem,
  ) {
    for (const entry of settings.allow) {
      const [address, bits] = entry.split('/');
      const family = isIP(address);
      if (family === 0) this.allowedHosts.add(entry.toLowerCase());
      else if (bits === undefined) this.allowedAddresses.addAddress(address, family === 4 ? 'ipv4' : 'ipv6');
      else this.allowedAddresses.addSubnet(address, Number(bits), family === 4 ? 'ipv4' : 'ipv6');
    }
  }

  /** Why `address` (reached as `hostname`) must not be connected to, or undefined. */
  addressProblem(shown: string, hostname?: string): string | undefined {
    if (hostname !== undefined && this.allowedHosts.has(hostname.toLowerCase())) return undefined;
    const address = bareAddress(shown);
    const range = refusedRange(address);
    if (range === undefined) return undefined;
    const family = isIP(address) === 4 ? 'ipv4' : 'ipv6';
    if (this.allowedAddresses.check(address, family)) return undefined;
    const ipv4 = family === 'ipv6' ? embeddedIpv4(address) : undefined;
    if (ipv4 !== undefined && this.allowedAddresses.check(ipv4, 'ipv4')) return undefined;
    return `${shown} is a ${range} address, which EGRESS_ALLOW does not list`;
  }

  /**
   * Why a URL may not be requested, judged without resolving names: not http(s), or its host is a literal address
   * the policy refuses (names are checked when connecting). Undefined when it may be tried.
   */
  urlProblem(text: string): string | undefined {
    const url = URL.canParse(text) ? new URL(text) : undefined;
    if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) return 'not an http:// or https:// URL';
    const host = url.hostname.replace(/^\[|\]$/g, '');
    return isIP(host) === 0 ? undefined : this.addressProblem(host, host);
  }

  /**
   * Why a webhook's ca_file_path may not be used, or undefined: it must name a file inside WEBHOOK_CA_DIR once
   * `..` and symbolic links are resolved. A path outside the folder is refused before the file system is consulted,
   * so the answer does not tell whether files elsewhere exist.
   */
  caFileProblem(path: string): string | undefined {
    return this.resolveCaFile(path).problem;
  }

  /** The CA file's contents, checked as {@link caFileProblem} checks its path at the moment of reading. */
  async readCaFile(path: string): Promise<Buffer> {
    const resolved = this.resolveCaFile(path);
    if (resolved.problem !== undefined) throw new EgressDeniedError(`ca_file_path: ${resolved.problem}`);
    return readFile(resolved.path);
  }

  private resolveCaFile(path: string): { path: string; problem?: undefined } | { path?: undefined; problem: string } {
    const directory = this.settings.caDirectory;
    if (directory === undefined) return { problem: 'CA files are not enabled on this server (WEBHOOK_CA_DIR is unset); leave it empty' };
    const prefix = directory.endsWith(sep) ? directory : directory + sep;
    const inside = (candidate: string) => candidate.startsWith(prefix);
    const outside = { problem: `must name a file inside the CA folder ${directory}` };
    if (!inside(resolve(directory, path))) return outside;
    let real: string;
    try {
      real = realpathSync(resolve(directory, path));
    } catch {
      return { problem: 'no such file in the CA folder' };
    }
    if (!inside(real)) return outside;
    try {
      if (!statSync(real).isFile()) return { problem: 'not a file' };
    } catch {
      return { problem: 'no such file in the CA folder' };
    }
    return { path: real };
  }

  /**
   * One request under the policy: no redirect is followed (a 3xx is the answer), at most `maxResponseBytes` are
   * read, and the whole exchange is bounded by `timeoutMs`. Rejects with EgressDeniedError before any connection
   * when the target is refused, EgressTimeoutError, EgressResponseTooLargeError, or the network's error.
   */
  async request(target: string, options: EgressRequestOptions): Promise<EgressResponse> {
    const problem = this.urlProblem(target);
    if (problem !== undefined) throw new EgressDeniedError(problem);
    const url = new URL(target);
    const body = options.body;
    const requestOptions: RequestOptions & { rejectUnauthorized?: boolean; ca?: Buffer } = {
      method: options.method ?? 'GET',
      headers: body === undefined ? options.headers : { ...options.headers, 'Content-Length': String(body.length) },
      // A fresh connection per request: nothing lingers in a shared pool, and every connection goes through lookup.
      agent: false,
      lookup: this.lookup,
    };
    if (url.protocol === 'https:') {
      requestOptions.rejectUnauthorized = options.rejectUnauthorized ?? true;
      requestOptions.ca = options.ca;
    }

    return new Promise<EgressResponse>((resolveResponse, reject) => {
      const outgoing = url.protocol === 'https:' ? httpsRequest(url, requestOptions) : httpRequest(url, requestOptions);
      let settled = false;
      const settle = (outcome: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        outcome();
        outgoing.destroy();
      };
      const fail = (error: Error) => settle(() => reject(error));
      const timer = setTimeout(
        () => fail(new EgressTimeoutError(`no complete response within ${options.timeoutMs} ms`)),
        options.timeoutMs,
      );

      outgoing.on('response', (response) => {
        const status = response.statusCode ?? 0;
        const chunks: Buffer[] = [];
        let received = 0;
        const finish = () => settle(() => resolveResponse({ status, headers: response.headers, body: Buffer.concat(chunks, received) }));
        const tooLarge = () =>
          fail(new EgressResponseTooLargeError(`the response is larger than the limit of ${options.maxResponseBytes} bytes`));
        const announced = Number(response.headers['content-length']);
        if (options.overflow === 'fail' && Number.isFinite(announced) && announced > options.maxResponseBytes) {
          tooLarge();
          return;
        }
        response.on('data', (chunk: Buffer) => {
          if (received + chunk.length > options.maxResponseBytes) {
            if (options.overflow === 'fail') return tooLarge();
            const kept = chunk.subarray(0, options.maxResponseBytes - received);
            chunks.push(kept);
            received += kept.length;
            return finish();
          }
          chunks.push(chunk);
          received += chunk.length;
        });
        response.on('end', finish);
        response.on('error', fail);
      });
      outgoing.on('error', fail);
      outgoing.end(body);
    });
  }

  /** A resolver's answer that is not an address the policy can judge is refused like a refused range. */
  private resolvedAddressProblem(address: string, hostname: string): string | undefined {
    try {
      return this.addressProblem(address, hostname);
    } catch {
      return `the resolver answered ${JSON.stringify(address)}, which is not an IP address`;
    }
  }

  /**
   * net's `lookup` for the policy's connections: resolves once and hands net only the addresses the policy allows,
   * so the connection goes to a checked address. A name none of whose addresses is allowed fails with
   * EgressDeniedError.
   */
  private readonly lookup: LookupFunction = (hostname, options, callback) => {
    const done = callback as (error: Error | null, address: string | LookupAddress[], family?: number) => void;
    this.resolveAll(hostname, options.family === 4 || options.family === 6 ? options.family : 0).then(
      (addresses) => {
        const problems = addresses.map(({ address }) => this.resolvedAddressProblem(address, hostname));
        const allowed = addresses.filter((_, index) => problems[index] === undefined);
        if (allowed.length === 0) {
          const reason = addresses.length === 0 ? 'it has no address' : problems[0];
          done(new EgressDeniedError(`${hostname} may not be reached: ${reason}`), []);
        } else if (options.all) done(null, allowed);
        else done(null, allowed[0].address, allowed[0].family);
      },
      (error: Error) => done(error, []),
    );
  };
}
