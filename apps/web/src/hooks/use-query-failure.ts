import { useState } from 'react';

/**
 * A query's failure for the error modal: shown until the admin closes it, and shown again only when a
 * later attempt fails anew (each failure is a new object). Derived rather than copied into state in an
 * effect, so it never lags a render behind the query.
 */
export function useQueryFailure(failure: object | null, describe: (failure: object) => string) {
  const [dismissed, setDismissed] = useState<object | null>(null);
  const message = failure && failure !== dismissed ? describe(failure) : null;
  return { message, dismiss: () => setDismissed(failure) };
}
