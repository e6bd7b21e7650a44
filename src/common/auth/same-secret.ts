import { createHash, timingSafeEqual } from 'node:crypto';

/** Compares digests, so neither the content nor the length of the secret leaks through timing. */
export function sameSecret(presented: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
  return timingSafeEqual(digest(presented), digest(expected));
}
