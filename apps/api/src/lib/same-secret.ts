import { createHash, timingSafeEqual } from 'node:crypto';

/** Compares a presented secret with the configured one in constant time, whatever the lengths. */
export function sameSecret(given: string, expected: string) {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}
