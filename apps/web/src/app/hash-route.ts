/**
 * Links and the password-reset continue URL use hash routes (`/#/invoice?parcelCode=X`). They are
 * mapped onto the real route before the router starts, so there is one set of routes.
 */
export function hashRouteTarget(location: Pick<Location, 'pathname' | 'hash'>): string | null {
  if (location.pathname !== '/' || !location.hash.startsWith('#/')) return null;
  return location.hash.slice(1);
}

export function adoptHashRoute() {
  const target = hashRouteTarget(window.location);
  if (target) window.history.replaceState(window.history.state, '', target);
}
