import { useEffect, useState } from 'react';
import { useCurrentUser } from '@/lib/auth';

const KEY = 'finance-selection';

function read(uid: string): ReadonlySet<string> {
  try {
    const saved = JSON.parse(sessionStorage.getItem(KEY) ?? 'null') as { uid?: unknown; codes?: unknown } | null;
    if (saved?.uid !== uid || !Array.isArray(saved.codes)) return new Set();
    return new Set(saved.codes.filter((code): code is string => typeof code === 'string'));
  } catch {
    return new Set();
  }
}

/**
 * The ticked invoices, kept in this tab for this person: opening one invoice and coming back finds the
 * selection as it was. Another account signing in on the tab starts with none.
 */
export function useKeptSelection() {
  const { uid } = useCurrentUser();
  const [selected, setSelected] = useState<ReadonlySet<string>>(() => read(uid));
  useEffect(() => {
    try {
      if (selected.size === 0) sessionStorage.removeItem(KEY);
      else sessionStorage.setItem(KEY, JSON.stringify({ uid, codes: [...selected] }));
    } catch {
      // A full or refused storage keeps the selection for this visit only.
    }
  }, [uid, selected]);
  return [selected, setSelected] as const;
}
