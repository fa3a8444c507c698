/**
 * Links and the password-reset continue URL use hash routes (`/#/invoice?parcelCode=X`). They are
 * mapped onto the real route before the router starts, so there is one set of routes.
 */
export function hashRouteTarget(location: Pick<Location, 'pathname' | 'hash'>): string | null {
  if (location.pathname !== '/' || !location.hash.startsWith('#/')) return null;
  // "#//evil.example" (or "#/\\evil.example") names another origin: no route of ours, and replaceState throws.
  const base = 'https://portal.invalid';
  const url = new URL(location.hash.slice(1), base);
  if (url.origin !== base) return null;
  return url.pathname + url.search + url.hash;
}

export function adoptHashRoute() {
  const target = hashRouteTarget(window.location);
  if (target) window.history.replaceState(window.history.state, '', target);
}
