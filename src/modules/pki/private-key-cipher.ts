import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { DomainError } from '../../common/errors/domain-error';

const PREFIX = 'enc:v1';
const IV_BYTES = 12;

export class PrivateKeyDecryptionError extends DomainError {
  readonly kind = 'unavailable';

  constructor(message: string) {
    super('private_key_unavailable', message);
  }
}

/** Short, non-secret name of a key, stored beside each ciphertext so rotation knows what to redo. */
export function encryptionKeyId(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 8);
}

/**
 * Encrypts private keys at rest with AES-256-GCM (authenticated: a modified ciphertext fails to
 * decrypt rather than yielding a wrong key). Stored form: `enc:v1:<key id>:<iv>:<ciphertext>:<tag>`,
 * base64url parts. Earlier keys decrypt what they encrypted until `keys:reencrypt` has moved it.
 */
export class PrivateKeyCipher {
  private readonly keys = new Map<string, Buffer>();
  readonly currentKeyId: string;

  constructor(
    private readonly currentKey: Buffer,
    oldKeys: Buffer[] = [],
  ) {
    this.currentKeyId = encryptionKeyId(currentKey);
    for (const key of [currentKey, ...oldKeys]) this.keys.set(encryptionKeyId(key), key);
  }

  encrypt(plaintext: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.currentKey, iv);
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [PREFIX, this.currentKeyId, iv, ciphertext, cipher.getAuthTag()]
      .map((part) => (Buffer.isBuffer(part) ? part.toString('base64url') : part))
      .join(':');
  }

  decrypt(stored: string): string {
    const parts = stored.split(':');
    if (parts.length !== 6 || `${parts[0]}:${parts[1]}` !== PREFIX) {
      throw new PrivateKeyDecryptionError('Stored private key is not in the encrypted format');
    }
    const [, , keyId, iv, ciphertext, tag] = parts;
    const key = this.keys.get(keyId);
    if (!key) throw new PrivateKeyDecryptionError(`Stored private key was encrypted with an unknown key (${keyId})`);
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      throw new PrivateKeyDecryptionError('Stored private key failed authentication: it was altered or the key is wrong');
    }
  }

  /** True when the stored value is encrypted with an earlier key (or not encrypted at all). */
  needsReencryption(stored: string): boolean {
    return stored.split(':')[2] !== this.currentKeyId || !stored.startsWith(`${PREFIX}:`);
  }
}
