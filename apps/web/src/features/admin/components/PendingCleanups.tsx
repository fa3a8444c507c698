import Alert from 'react-bootstrap/Alert';
import { useAccountCleanups } from '../api/get-account-cleanups';
import { CLEANUPS_PENDING_INTRO, cleanupsPendingTitle } from '../messages';
import { EmailText } from './EmailText';

const when = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

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
            <EmailText email={item.email} />, deleted by <EmailText email={item.requestedBy} /> on{' '}
            {when.format(new Date(item.requestedAt))}; {item.attempts} {item.attempts === 1 ? 'attempt' : 'attempts'}
            {item.lastError && ` (last: ${item.lastError})`}
          </li>
        ))}
      </ul>
    </Alert>
  );
}
