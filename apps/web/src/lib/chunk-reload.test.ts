import { CHUNK_RELOAD_KEY, handledWithoutReload, reloadOnFailedChunk, RELOAD_LOOP_WINDOW_MS } from './chunk-reload';

/** A page as the listener sees it: its events, session storage, whether it is online, and its reload. */
function page({ online = true, storage = sessionStorage as Pick<Storage, 'getItem' | 'setItem'> } = {}) {
  const events = new EventTarget();
  const reload = vi.fn();
  let now = 1_000_000;
  reloadOnFailedChunk({ events, storage, online: () => online, reload, now: () => now });
  /** Vite's event for a failed import (`payload` the import's error), and a task for the decision. */
  const failChunk = async (error: object = new TypeError('Failed to fetch dynamically imported module')) => {
    const event = Object.assign(new Event('vite:preloadError', { cancelable: true }), { payload: error });
    events.dispatchEvent(event);
    // The importer's turn: it hears of the rejection in a microtask, as `import()` rejects.
    await Promise.resolve();
    await new Promise((resolve) => setTimeout(resolve, 0));
    return event;
  };
  return { reload, failChunk, later: (ms: number) => (now += ms) };
}

describe('reloading for a chunk that failed', () => {
  it('reloads once, leaving the failure to its importer (the event is not prevented)', async () => {
    const { reload, failChunk } = page();
    const event = await failChunk();
    expect(event.defaultPrevented).toBe(false);
    expect(reload).toHaveBeenCalledTimes(1);
    expect(sessionStorage.getItem(CHUNK_RELOAD_KEY)).toBe('1000000');
  });

  it('does not reload again when the reloaded page fails too, but does for a rollout much later', async () => {
    const { reload, failChunk, later } = page();
    await failChunk();
    later(RELOAD_LOOP_WINDOW_MS - 1);
    await failChunk();
    expect(reload).toHaveBeenCalledTimes(1);
    later(1);
    await failChunk();
    expect(reload).toHaveBeenCalledTimes(2);
  });

  it('does not reload for a failure its importer has taken care of (the error modal’s stand-in)', async () => {
    const { reload, failChunk } = page();
    const error = new TypeError('Failed to fetch dynamically imported module');
    const events = failChunk(error);
    handledWithoutReload(error);
    await events;
    expect(reload).not.toHaveBeenCalled();
    expect(sessionStorage.getItem(CHUNK_RELOAD_KEY)).toBeNull();
  });

  it('does not reload while the browser is offline: its own error page would replace the portal', async () => {
    const { reload, failChunk } = page({ online: false });
    await failChunk();
    expect(reload).not.toHaveBeenCalled();
  });

  it('does not reload when session storage is refused: nothing would stop a loop', async () => {
    const refused = () => {
      throw new DOMException('denied', 'SecurityError');
    };
    const { reload, failChunk } = page({ storage: { getItem: refused, setItem: refused } });
    await failChunk();
    expect(reload).not.toHaveBeenCalled();
  });
});
