import { Navigate, useLocation } from '@/lib/router';
import { CenteredMessage } from '@/components/CenteredMessage';
import { PageSpinner } from '@/components/PageSpinner';
import { useAccount } from '@/lib/account-query';
import { useAuth } from '@/lib/auth';
import { paths } from '@/lib/paths';
import { QueryBoundary } from '@/lib/query-boundary';
import { NotFoundScreen } from './NotFoundScreen';

function FinanceOrNotFound({ email }: { email: string }) {
  const location = useLocation();
  const account = useAccount(email);
  if (account.isPending) return <PageSpinner />;
  if (account.data?.finance !== true) return <NotFoundScreen />;
  return <Navigate to={{ pathname: paths.finance, search: location.search }} replace />;
}

/**
 * The finance page's former address (see FORMER_FINANCE_PATH): a bookmark of a finance holder still leads to
 * the page, with its search. For everyone else it is what the spec makes of any other path, Page Not Found,
 * signed out too: sending them to sign in would bring an ordinary user, by the spec's post-login rule for a
 * path containing "invoice", back here instead of to the invoice screen.
 */
export default function FormerFinancePath() {
  const { state } = useAuth();
  if (state.status === 'loading') return <CenteredMessage>Loading...</CenteredMessage>;
  if (state.status === 'signed-out') return <NotFoundScreen />;
  return (
    <QueryBoundary fallback={<PageSpinner />}>
      <FinanceOrNotFound email={state.user.email} />
    </QueryBoundary>
  );
}
