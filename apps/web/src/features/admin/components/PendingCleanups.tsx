import { Alert } from '@/components/Alert';
import { formatDateTime } from '@/lib/format-date';
import { useAccountCleanups } from '../api/get-account-cleanups';
import { CLEANUPS_PENDING_INTRO, cleanupsPendingTitle } from '../messages';

/**
 * Deleted users whose sign-in account the identity provider has not yet deleted: shown only while there are
 * any, so an admin sees that the portal is still finishing a removal, and why.
 */
export function PendingCleanups() {
  const cleanups = useAccountCleanups();
  const pending = cleanups.data;
  if (!pending || pending.total === 0) return null;
  return (
    <Alert variant="warning" className="mb-3" aria-labelledby="pending-cleanups-title">
      <h2 className="h6 alert-heading" id="pending-cleanups-title">
        {cleanupsPendingTitle(pending.total)}
      </h2>
      <p className="small mb-2">{CLEANUPS_PENDING_INTRO}</p>
      <ul className="small mb-0 ps-3 text-break">
        {pending.items.map((item) => (
          <li key={`${item.email} ${item.requestedAt}`}>
            {item.email}, deleted by {item.requestedBy} on {formatDateTime(item.requestedAt)}; {item.attempts}{' '}
            {item.attempts === 1 ? 'attempt' : 'attempts'}
            {item.lastError && ` (last: ${item.lastError})`}
          </li>
        ))}
      </ul>
    </Alert>
  );
}
