import type { KeySpec, RsaKeySize } from '@libs/x509';

/** The key algorithms a CA or a server-generated certificate key can have. */
export const KEY_TYPES = ['rsa', 'ecdsa-p256', 'ecdsa-p384', 'ed25519'] as const;
export type KeyType = (typeof KEY_TYPES)[number];

export function keySpecFor(type: KeyType, rsaSize: RsaKeySize): KeySpec {
  switch (type) {
    case 'rsa':
      return { type: 'rsa', size: rsaSize };
    case 'ecdsa-p256':
      return { type: 'ec', curve: 'P-256' };
    case 'ecdsa-p384':
      return { type: 'ec', curve: 'P-384' };
    case 'ed25519':
      return { type: 'ed25519' };
  }
}
