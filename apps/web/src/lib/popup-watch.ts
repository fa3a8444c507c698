/** How often a watched pop-up is checked: a person who closed it waits at most this long. */
export const POPUP_POLL_MS = 250;

/**
 * Calls `onClosed` as soon as the next window this page opens is closed. The identity SDK notices a closed
 * sign-in pop-up only after a long wait (it allows for a result still on its way, about 8 s and more), and
 * the login screen would stay busy until then: this lets it give the person their form back at once, while
 * the SDK's own answer, whenever it comes, is still handled. Returns a function that stops watching.
 */
export function watchNextPopup(onClosed: () => void): () => void {
  const original = window.open;
  let timer: ReturnType<typeof setInterval> | undefined;
  const restore = () => {
    if (window.open === watching) window.open = original;
  };
  const watching: typeof window.open = (...args) => {
    restore();
    const popup = original.apply(window, args);
    if (popup) {
      timer = setInterval(() => {
        if (!popup.closed) return;
        clearInterval(timer);
        onClosed();
      }, POPUP_POLL_MS);
    }
    return popup;
  };
  window.open = watching;
  return () => {
    restore();
    clearInterval(timer);
  };
}
