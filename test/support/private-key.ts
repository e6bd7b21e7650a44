import { createPrivateKey } from 'node:crypto';

/**
 * Asserts that `pem` is exactly one unencrypted PKCS#8 private key, as the API promises: Node parses
 * it as a private key and re-encodes it to the same text.
 */
export function expectPkcs8PrivateKey(pem: unknown): void {
  expect(typeof pem).toBe('string');
  const key = createPrivateKey(pem as string);
  expect(key.type).toBe('private');
  expect(key.export({ type: 'pkcs8', format: 'pem' })).toBe(pem);
}
