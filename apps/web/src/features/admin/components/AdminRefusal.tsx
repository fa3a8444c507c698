import { Link } from '@/lib/router';
import { AccountNotAllowed } from '@/components/AccountNotAllowed';
import { ApiError } from '@/lib/api-client';
import { paths } from '@/lib/paths';
import { BACK_TO_INVOICES, NO_PERMISSION_MESSAGE } from '../messages';

/**
 * What stays on the admin page once the permission modal is closed: the reason, and a way on. An ordinary
 * user goes back to the invoices; an account that is not allowed at all (the lookup answered 401) is told
 * so and offered Sign Out, since no page of the portal will open for it.
 */
export function AdminRefusal({ failure }: { failure: object }) {
  if (failure instanceof ApiError && failure.status === 401)
    return <AccountNotAllowed reason={failure.serverMessage} />;
  return (
    <div className="admin-refusal">
      <div className="alert alert-warning">{NO_PERMISSION_MESSAGE}</div>
      <Link to={paths.invoice} className="btn btn-primary">
        {BACK_TO_INVOICES}
      </Link>
    </div>
  );
}
