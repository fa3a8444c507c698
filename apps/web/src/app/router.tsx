import { lazy } from 'react';
import { Route, Routes } from '@/lib/router';
import { LoginRoute } from '@/features/auth/components/LoginRoute';
import { isInvoicePath, type SignedInInvoiceModule } from '@/lib/first-load-plan';
import { lazyWithPreload } from '@/lib/lazy-with-preload';
import { FORMER_FINANCE_PATH, paths } from '@/lib/paths';
import { preloadQueryBoundary } from '@/lib/query-boundary';
import { AppLayout } from './layout/AppLayout';
import { preloadHeader } from './layout/Header';
import { ExactPath } from './routes/ExactPath';
import { PrivateRoute } from './routes/PrivateRoute';

/**
 * Declarative routes, drawn by the portal's own router (lib/router.tsx, decision 123): React Router's, even
 * without its data router, was 12 KB of the login page's script (brotli), for six exact paths. The screens
 * load on demand; `preloadSignedInPage` starts one at boot, before the sign-in state is known, so the
 * screen renders as soon as it is.
 */
const InvoiceScreen = lazyWithPreload(() => import('@/features/invoice/components/InvoiceScreen'));
const AdminUsersScreen = lazyWithPreload(() => import('@/features/admin/components/AdminUsersScreen'));
const InvoicesSearchScreen = lazy(() => import('@/features/invoices-search/components/InvoicesSearchScreen'));
const NotFoundScreen = lazy(() =>
  import('./routes/NotFoundScreen').then((module) => ({ default: module.NotFoundScreen })),
);
const FormerFinancePath = lazy(() => import('./routes/FormerFinancePath'));

const loadAuthSdk = () => import('@/lib/firebase');

/**
 * One loader for each module a signed-in invoice link draws with (lib/first-load-plan.ts names them, and the
 * build writes their files into the page's preload script): the plan and these loaders cannot drift apart
 * unnoticed — a name without a loader does not type-check, and router.test.ts checks each loader loads the
 * file its name stands for.
 */
export const signedInInvoiceLoaders: Record<SignedInInvoiceModule, () => Promise<unknown>> = {
  authSdk: loadAuthSdk,
  invoiceScreen: InvoiceScreen.preload,
  queryLayer: preloadQueryBoundary,
  adminLink: preloadHeader,
};

/**
 * Starts loading what a signed-in page at `pathname` renders, for someone who may be signed in: the identity
 * provider's SDK, and for a private page its screen (the login page has its own), the query layer every private
 * screen reads through, and the header's admin link.
 */
export function preloadSignedInPage(pathname: string) {
  if (isInvoicePath(pathname)) {
    for (const load of Object.values(signedInInvoiceLoaders)) void load();
    return;
  }
  void loadAuthSdk();
  if (pathname !== paths.admin) return;
  void AdminUsersScreen.preload();
  void preloadQueryBoundary();
  void preloadHeader();
}

export function AppRoutes() {
  return (
    <Routes>
      <Route element={<AppLayout />}>
        <Route element={<ExactPath notFound={<NotFoundScreen />} />}>
          <Route element={<PrivateRoute />}>
            <Route caseSensitive path={paths.root} element={<InvoiceScreen />} />
            <Route caseSensitive path={paths.invoice} element={<InvoiceScreen />} />
            <Route caseSensitive path={paths.admin} element={<AdminUsersScreen />} />
            <Route caseSensitive path={paths.finance} element={<InvoicesSearchScreen />} />
          </Route>
          <Route caseSensitive path={paths.login} element={<LoginRoute />} />
          <Route caseSensitive path={FORMER_FINANCE_PATH} element={<FormerFinancePath />} />
        </Route>
        <Route path="*" element={<NotFoundScreen />} />
      </Route>
    </Routes>
  );
}
