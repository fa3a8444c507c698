import { useState } from 'react';
import { requestIdOf } from '@/lib/api-client';

/**
 * A query's failure for the error modal: shown until the admin closes it, and shown again only when a
 * later attempt fails anew (each failure is a new object). Derived rather than copied into state in an
 * effect, so it never lags a render behind the query.
 */
export function useQueryFailure(failure: object | null, describe: (failure: object) => string) {
  const [dismissed, setDismissed] = useState<object | null>(null);
  const shown = failure && failure !== dismissed ? failure : null;
  return {
    message: shown ? describe(shown) : null,
    reference: requestIdOf(shown),
    dismiss: () => setDismissed(failure),
  };
}
