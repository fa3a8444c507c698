import { useRef, useState } from 'react';
import { requestIdOf } from '@/lib/api-client';

/** What an action left to tell: a line, perhaps a list under it, perhaps a way to see what it was about. */
export interface Notice {
  text: string;
  /** `warning` when part of it did not happen. */
  tone?: 'success' | 'warning';
  details?: string[];
  /** An address the notice offers to show in the list. */
  show?: string;
  /**
   * A one-time enrollment code the notice hands over: the notice then stays through any filter or page until
   * it is dismissed or the code copied, since the code is shown nowhere else and getting another ends sessions.
   */
  code?: string;
}

interface ActionError {
  message: string;
  /** Only for a server failure (5xx): the reference support can look up. */
  reference: string | undefined;
}

/**
 * The one place the user list tells how an action went: a success in a notice above the list, a failure in
 * the spec's error modal. A notice belongs to the list (filter and page) it was given on: another page or
 * filter starts without it, and Back does not bring an old one back.
 */
export function useActionFeedback(listKey: string) {
  // The lists a notice belongs to: the one it was given on, and one the list is moving to by itself.
  const [notice, setNotice] = useState<{ listKeys: string[]; notice: Notice; copied?: boolean } | null>(null);
  const [error, setError] = useState<ActionError | null>(null);
  // Where focus goes once the error is read, when the control that opened it has gone (a modal that closed).
  const focusAfterError = useRef<HTMLElement | null>(null);

  // Another page or filter drops the notice for good: coming back to the same page does not bring it back.
  // A code not yet copied stays, and moves with the list.
  const holdsCode = notice !== null && notice.notice.code !== undefined && notice.copied !== true;
  if (notice !== null && holdsCode && !notice.listKeys.includes(listKey)) setNotice({ ...notice, listKeys: [listKey] });
  const current = notice !== null && (holdsCode || notice.listKeys.includes(listKey));
  if (notice !== null && !current) setNotice(null);
  // Arrived where it was carried: from now on it belongs here alone.
  if (current && notice.listKeys.length > 1 && notice.listKeys.at(-1) === listKey)
    setNotice({ listKeys: [listKey], notice: notice.notice });

  return {
    notice: current ? notice.notice : null,
    error,
    /** Tells a success, above the list as it is now. */
    succeed: (next: Notice) => setNotice({ listKeys: [listKey], notice: next }),
    fail: (message: string, cause: unknown, focusTarget: HTMLElement | null = null) => {
      focusAfterError.current = focusTarget;
      setError({ message, reference: requestIdOf(cause) });
    },
    /** Keeps the notice when the list moves on by itself (a page emptied by a delete gives way to the last). */
    carryNoticeTo: (nextListKey: string) =>
      setNotice((previous) =>
        previous?.listKeys.includes(listKey) ? { ...previous, listKeys: [listKey, nextListKey] } : previous,
      ),
    dismissNotice: () => setNotice(null),
    /** The code is in the clipboard: the notice may now go the way of any other. */
    codeCopied: () => setNotice((previous) => (previous ? { ...previous, copied: true } : previous)),
    dismissError: () => setError(null),
    /** For the error modal's `onExited`. */
    restoreFocus: () => {
      if (focusAfterError.current?.isConnected) focusAfterError.current.focus();
      focusAfterError.current = null;
    },
  };
}

export type ActionFeedback = ReturnType<typeof useActionFeedback>;
