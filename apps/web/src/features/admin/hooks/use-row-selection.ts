import { useState } from 'react';

/**
 * The rows ticked on one page of the list. A selection belongs to the page it was made on (`pageKey`):
 * another page or filter starts with none, and a row that left the page (deleted on its own) leaves it.
 */
export function useRowSelection(pageKey: string, selectable: readonly string[]) {
  const [selection, setSelection] = useState({ pageKey, emails: new Set<string>() });
  const selected = new Set(
    selection.pageKey === pageKey ? selectable.filter((email) => selection.emails.has(email)) : [],
  );
  const select = (emails: Iterable<string>) => setSelection({ pageKey, emails: new Set(emails) });
  return {
    selected,
    selectAll: (all: boolean) => select(all ? selectable : []),
    toggle: (email: string, on: boolean) =>
      select(on ? [...selected, email] : [...selected].filter((other) => other !== email)),
    clear: () => select([]),
  };
}
