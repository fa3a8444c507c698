import { useEffect } from 'react';
import { useSearchParams } from '@/lib/router';

/**
 * The query strings written to the address that the screen may not have rendered yet: the one the first of
 * them started from, then each write in order. The router renders an address change as a transition, so on a
 * busy device a screen can show none of them for a while, or one from the middle (the first of two writes)
 * before the last; a change made meanwhile must start from the last, or it undoes the writes after the one
 * on screen.
 */
export class AddressWrites {
  private chain: string[] = [];

  /** What a change made while the screen shows `rendered` starts from. */
  latest(rendered: string): string {
    return this.chain.includes(rendered) ? this.chain[this.chain.length - 1]! : rendered;
  }

  /** A change made while the screen showed `rendered` wrote `next`. */
  wrote(rendered: string, next: string): void {
    // Not one of the chain on screen: the screen moved on by itself (Back, a link), and starts a new chain.
    if (!this.chain.includes(rendered)) this.chain = [rendered];
    this.chain.push(next);
  }

  /** The screen now shows `rendered`: once it is the last write, the router's address is the latest again. */
  shown(rendered: string): void {
    if (this.chain[this.chain.length - 1] === rendered) this.chain = [];
  }

  /** The screen that wrote them is gone: writes it never rendered must not shape the next screen's first change. */
  forget(): void {
    this.chain = [];
  }
}

/** One for the page: every hook that writes the address (a tab, a list's filters) adds to the same chain. */
const writes = new AddressWrites();
let mountedUsers = 0;

/**
 * The address's query string, for the hooks that keep a screen's state in it. `change` applies an edit to the
 * address as last written, not as last rendered: three filters picked quickly, or a paused search ending as a
 * tab opens, would otherwise each start from the same old address, and each would undo the one before.
 */
export function useAddressQuery() {
  const [query, setQuery] = useSearchParams();
  const rendered = query.toString();
  // After the render: a Back to an address the chain started from must not bring the chain's writes back.
  useEffect(() => writes.shown(rendered), [rendered]);
  // Leaving the page before it rendered a write would otherwise leave that write pending: back on the page at
  // the address the writes started from, the first change would start from the write left behind.
  useEffect(() => {
    mountedUsers += 1;
    return () => {
      mountedUsers -= 1;
      if (mountedUsers === 0) writes.forget();
    };
  }, []);

  const change = (edit: (current: URLSearchParams) => URLSearchParams, options: { replace?: boolean } = {}) => {
    const next = edit(new URLSearchParams(writes.latest(rendered)));
    writes.wrote(rendered, next.toString());
    setQuery(next, { replace: options.replace ?? false });
  };
  return { query, change };
}
