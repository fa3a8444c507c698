import { useEffect } from 'react';
import { useSearchParams } from 'react-router';

/** The last address written here that the screen may not have rendered yet. */
let written: { from: string; to: string } | null = null;

/**
 * The admin page's address, for the hooks that write it (the open tab, the user list's state). A change is
 * applied to the address as last written, not as last rendered: two changes made before the first one has
 * rendered (three filters picked quickly, a paused search ending as a tab opens) would otherwise each start
 * from the same old address, and the second would undo the first.
 */
export function useAdminAddress() {
  const [query, setQuery] = useSearchParams();
  const rendered = query.toString();
  // Once the screen shows what was written, the router's address is the latest again: a Back to the address
  // the write started from must not bring the write back.
  useEffect(() => {
    if (written?.to === rendered) written = null;
  }, [rendered]);

  const change = (edit: (current: URLSearchParams) => URLSearchParams, options: { replace?: boolean } = {}) => {
    // Still rendering the address the last write started from: that write is the latest. Otherwise the
    // screen has moved on (to what was written, or by Back) and shows the latest itself.
    const current = new URLSearchParams(written?.from === rendered ? written.to : rendered);
    const next = edit(current);
    written = { from: rendered, to: next.toString() };
    setQuery(next, { replace: options.replace ?? false });
  };
  return { query, change };
}
