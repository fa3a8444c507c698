import type { SavedLocation } from '@/lib/storage';

const fromQuery = (query: string) => new URLSearchParams(query).get('parcelCode')?.trim() || null;

/**
 * The spec's order: the query string, then the part after the hash, then the location saved before
 * signing in. The hash may hold a hash route (`#/invoice?parcelCode=X`) or bare parameters (`#parcelCode=X`).
 */
export function readParcelCode(
  location: { search: string; hash: string },
  beforeLogin: SavedLocation | null,
): string | null {
  const fragment = location.hash.replace(/^#/, '');
  const hashQuery = fragment.includes('?') ? fragment.slice(fragment.indexOf('?') + 1) : fragment;
  return fromQuery(location.search) ?? fromQuery(hashQuery) ?? (beforeLogin ? fromQuery(beforeLogin.search) : null);
}

/**
 * A code as a person types it, as the links carry it: without the spaces a paste brings, in capitals (parcel
 * codes are printed in capitals, and a phone's keyboard starts a field in lower case).
 */
export const normalizeTypedParcelCode = (typed: string) => typed.trim().toUpperCase();
