/**
 * The two browser-storage keys the spec names. `userEmail` holds the signed-in user's uid despite its
 * name; `beforeLogin` holds the location a signed-out visitor asked for.
 */
export const USER_KEY = 'userEmail';
export const BEFORE_LOGIN_KEY = 'beforeLogin';

export interface SavedLocation {
  pathname: string;
  search: string;
}

export const storedUser = () => localStorage.getItem(USER_KEY);
export const storeUser = (uid: string) => localStorage.setItem(USER_KEY, uid);
export const forgetUser = () => localStorage.removeItem(USER_KEY);

export function readBeforeLogin(): SavedLocation | null {
  const raw = sessionStorage.getItem(BEFORE_LOGIN_KEY);
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as Partial<SavedLocation>;
    return typeof value.pathname === 'string' ? { pathname: value.pathname, search: value.search ?? '' } : null;
  } catch {
    return null;
  }
}

export const saveBeforeLogin = (location: SavedLocation) =>
  sessionStorage.setItem(BEFORE_LOGIN_KEY, JSON.stringify({ pathname: location.pathname, search: location.search }));
export const forgetBeforeLogin = () => sessionStorage.removeItem(BEFORE_LOGIN_KEY);
