/**
 * A chunk of the app that cannot be downloaded. During a rollout the page still names the previous build's
 * files, which the new build no longer has: the one way on is the new page, so the app reloads — once. If
 * the reloaded page fails too, the cause is not a rollout, and a further reload would only loop: the failure
 * then goes on to whoever asked for the chunk (the error boundary's fallback screen, with its reload link).
 *
 * Two failures are not reloaded:
 * - one whose importer shows something else instead (`handledWithoutReload`): the error modal shows its plain
 *   stand-in with the error the person must read, which a reload would throw away;
 * - one while the browser knows it is offline: a reload would show the browser's own error page in place of
 *   the portal.
 */

/** Session storage: when this tab last reloaded for a failed chunk (ms since the epoch). */
export const CHUNK_RELOAD_KEY = 'portal:chunk-reload';
/** A failure this soon after such a reload is the reloaded page's own: no second reload. */
export const RELOAD_LOOP_WINDOW_MS = 60_000;

const handledHere = new WeakSet<object>();

/** Says that the importer of a failed chunk carries on without it (passed the import's error). */
export function handledWithoutReload(error: unknown) {
  if (typeof error === 'object' && error !== null) handledHere.add(error);
}

interface ChunkReloadDeps {
  events: Pick<EventTarget, 'addEventListener'>;
  storage: Pick<Storage, 'getItem' | 'setItem'>;
  online: () => boolean;
  reload: () => void;
  now: () => number;
}

/**
 * Listens for Vite's `vite:preloadError` (a lazily imported chunk, or one of its files, failed). The event is
 * left unprevented, so the import still rejects and its importer hears of it; whether to reload is decided a
 * task later, once the importer has had its turn to call `handledWithoutReload`.
 */
export function reloadOnFailedChunk({
  events = window,
  storage = sessionStorage,
  online = () => navigator.onLine,
  reload = () => window.location.reload(),
  now = Date.now,
}: Partial<ChunkReloadDeps> = {}) {
  events.addEventListener('vite:preloadError', (event) => {
    const error = (event as Event & { payload?: unknown }).payload;
    setTimeout(() => {
      if (typeof error === 'object' && error !== null && handledHere.has(error)) return;
      if (!online()) return;
      try {
        const last = Number(storage.getItem(CHUNK_RELOAD_KEY) ?? 0);
        // Written before reloading: without it there would be no telling a second failure from a first.
        if (now() - last < RELOAD_LOOP_WINDOW_MS) return;
        storage.setItem(CHUNK_RELOAD_KEY, String(now()));
      } catch {
        // Storage refused (a privacy setting): no guard against a loop, so no reload.
        return;
      }
      reload();
    }, 0);
  });
}
