import * as jwt from 'jsonwebtoken';
import { createHmac, createSecretKey } from 'node:crypto';
import { HmacJwt } from './hmac-jwt';

const SECRET = 'a-test-secret-of-more-than-thirty-two-characters';
const KEY = createSecretKey(Buffer.from(SECRET));
const NOW = 1_800_000_000;
const CLAIMS = { sub: 'alice', id: 7, iat: NOW - 10, exp: NOW + 900 };

describe('HmacJwt', () => {
  const hs256 = new HmacJwt(KEY, 'HS256');

  it('verifies its own tokens and tokens of a standard JWT library, and its tokens verify there', () => {
    expect(hs256.verify(hs256.sign(CLAIMS), NOW)).toEqual(CLAIMS);
    for (const algorithm of ['HS256', 'HS384', 'HS512'] as const) {
      const ours = new HmacJwt(KEY, algorithm);
      expect(ours.verify(jwt.sign(CLAIMS, SECRET, { algorithm }), NOW)).toEqual(CLAIMS);
      expect(jwt.verify(ours.sign(CLAIMS), SECRET, { algorithms: [algorithm], clockTimestamp: NOW })).toEqual(CLAIMS);
      expect(jwt.decode(ours.sign(CLAIMS), { complete: true })?.header).toEqual({ alg: algorithm, typ: 'JWT' });
    }
  });

  it.each([
    ['another key', () => jwt.sign(CLAIMS, 'another-secret-of-more-than-thirty-two-chars', { algorithm: 'HS256' })],
    ['alg none', () => jwt.sign(CLAIMS, '', { algorithm: 'none' })],
    ['another HMAC algorithm', () => jwt.sign(CLAIMS, SECRET, { algorithm: 'HS512' })],
    ['the header re-labelled', () => relabel(hs256.sign(CLAIMS), { alg: 'HS512', typ: 'JWT' })],
    ['a changed payload', () => swapPayload(hs256.sign(CLAIMS), { ...CLAIMS, id: 1 })],
    ['a signature with a stray character', () => `${hs256.sign(CLAIMS)}=`],
    ['no signature', () => hs256.sign(CLAIMS).split('.').slice(0, 2).join('.') + '.'],
    ['two parts', () => hs256.sign(CLAIMS).split('.').slice(0, 2).join('.')],
    ['garbage', () => 'not.a.jwt'],
    ['an expired exp', () => hs256.sign({ ...CLAIMS, exp: NOW })],
    ['a string exp', () => hs256.sign({ ...CLAIMS, exp: String(NOW + 60) })],
    ['a future nbf', () => hs256.sign({ ...CLAIMS, nbf: NOW + 1 })],
    ['a payload that is not an object', () => signRaw('"alice"')],
    ['a payload that is not JSON', () => signRaw('{alice')],
  ])('rejects a token with %s', (_name, make) => {
    expect(hs256.verify(make(), NOW)).toBeUndefined();
  });

  it('accepts a token at its nbf and one second before its exp', () => {
    expect(hs256.verify(hs256.sign({ ...CLAIMS, nbf: NOW }), NOW)).toBeDefined();
    expect(hs256.verify(hs256.sign({ ...CLAIMS, exp: NOW + 1 }), NOW)).toBeDefined();
  });
});

function encode(value: unknown): string {
  return Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
}

function relabel(token: string, header: object): string {
  const [, payload, signature] = token.split('.');
  return `${encode(header)}.${payload}.${signature}`;
}

function swapPayload(token: string, payload: object): string {
  const [header, , signature] = token.split('.');
  return `${header}.${encode(payload)}.${signature}`;
}

/** A correctly signed token around an arbitrary payload text. */
function signRaw(payloadText: string): string {
  const input = `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode(payloadText)}`;
  return `${input}.${createHmac('sha256', KEY).update(input).digest('base64url')}`;
}
