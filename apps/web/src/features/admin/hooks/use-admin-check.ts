import { useAccount } from '@/lib/account-query';
import { useCurrentUser } from '@/lib/auth';

export type AdminCheck =
  | { status: 'checking' }
  | { status: 'confirmed' }
  /** `failure` identifies this particular refusal, so a dismissed modal stays dismissed until a new one. */
  | { status: 'denied'; failure: object };

/**
 * The spec's admin lookup on mount. It shares the header's cache entry, so one request serves both, and
 * it asks again on every visit so a role taken away meanwhile is noticed.
 */
export function useAdminCheck(): AdminCheck {
  const { email } = useCurrentUser();
  const lookup = useAccount(email, { refetchOnMount: 'always' });
  if (lookup.isError) return { status: 'denied', failure: lookup.error };
  if (lookup.isPending) return { status: 'checking' };
  return lookup.data.admin === true ? { status: 'confirmed' } : { status: 'denied', failure: lookup.data };
}
