import { useSyncExternalStore } from 'react';

/** Bootstrap's phone range (below `sm`), where the admin list turns into cards. */
export const PHONE_QUERY = '(max-width: 575.98px)';

const mediaQuery = (query: string) => (typeof window.matchMedia === 'function' ? window.matchMedia(query) : null);

/** Whether a CSS media query matches now, following it as the window changes. False where there is no matchMedia. */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = mediaQuery(query);
      list?.addEventListener('change', onChange);
      return () => list?.removeEventListener('change', onChange);
    },
    () => mediaQuery(query)?.matches ?? false,
  );
}
