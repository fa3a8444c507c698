import { Navigate, Outlet, useLocation } from '@/lib/router';
import { CenteredMessage } from '@/components/CenteredMessage';
import { useAuth } from '@/lib/auth';
import { paths } from '@/lib/paths';
import { QueryBoundary } from '@/lib/query-boundary';
import { PageSpinner } from '@/components/PageSpinner';

/** Signed-out visitors go to /login; the page they asked for travels along as state. */
export function PrivateRoute() {
  const { state } = useAuth();
  const location = useLocation();
  if (state.status === 'loading') return <CenteredMessage>Loading...</CenteredMessage>;
  if (state.status === 'signed-out') {
    return state.byUser ? (
      <Navigate to={paths.login} replace />
    ) : (
      <Navigate to={paths.login} replace state={{ from: { pathname: location.pathname, search: location.search } }} />
    );
  }
  // Every private screen reads the server through TanStack Query.
  return (
    <QueryBoundary fallback={<PageSpinner />}>
      <Outlet />
    </QueryBoundary>
  );
}
