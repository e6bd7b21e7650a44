import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { PrivateKeyCipher, PrivateKeyDecryptionError } from './private-key-cipher';

const PEM = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

describe('PrivateKeyCipher', () => {
  const key = randomBytes(32);

  it('round-trips and never stores the plaintext', () => {
    const cipher = new PrivateKeyCipher(key);
    const stored = cipher.encrypt(PEM);
    expect(stored).toMatch(/^enc:v1:[0-9a-f]{8}:[\w-]+:[\w-]+:[\w-]+$/);
    expect(stored).not.toContain('PRIVATE KEY');
    expect(cipher.decrypt(stored)).toBe(PEM);
  });

  it('uses a fresh IV each time', () => {
    const cipher = new PrivateKeyCipher(key);
    expect(cipher.encrypt(PEM)).not.toBe(cipher.encrypt(PEM));
  });

  it('refuses a tampered ciphertext, an unknown key and plaintext', () => {
    const cipher = new PrivateKeyCipher(key);
    const parts = cipher.encrypt(PEM).split(':');
    const body = Buffer.from(parts[4], 'base64url');
    body[0] ^= 1;
    parts[4] = body.toString('base64url');
    expect(() => cipher.decrypt(parts.join(':'))).toThrow(PrivateKeyDecryptionError);
    expect(() => new PrivateKeyCipher(randomBytes(32)).decrypt(cipher.encrypt(PEM))).toThrow(/unknown key/);
    expect(() => cipher.decrypt(PEM)).toThrow(/not in the encrypted format/);
  });

  it('decrypts with old keys and says what needs re-encryption', () => {
    const oldKey = randomBytes(32);
    const oldCipher = new PrivateKeyCipher(oldKey);
    const stored = oldCipher.encrypt(PEM);
    const rotated = new PrivateKeyCipher(randomBytes(32), [oldKey]);
    expect(rotated.decrypt(stored)).toBe(PEM);
    expect(rotated.needsReencryption(stored)).toBe(true);
    expect(rotated.needsReencryption(rotated.encrypt(PEM))).toBe(false);
  });
});
