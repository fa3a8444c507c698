import { createBrowserRouter, type RouteObject } from 'react-router';
import { PageSpinner } from '@/components/PageSpinner';
import { LoginRoute } from '@/features/auth/components/LoginRoute';
import { paths } from '@/lib/paths';
import { AppLayout } from './layout/AppLayout';
import { PrivateRoute } from './routes/PrivateRoute';
import { RouteErrorBoundary } from './routes/RouteErrorBoundary';

// The invoice, admin and not-found screens load on demand, so the login page carries none of them.
const invoiceScreen = () =>
  import('@/features/invoice/components/InvoiceScreen').then((module) => ({ Component: module.default }));
const notFoundScreen = () => import('./routes/NotFoundScreen').then((module) => ({ Component: module.NotFoundScreen }));
const adminScreen = () =>
  import('@/features/admin/components/AdminUsersScreen').then((module) => ({ Component: module.default }));

export const routes: RouteObject[] = [
  {
    element: <AppLayout />,
    errorElement: <RouteErrorBoundary />,
    // Shown while a lazily loaded screen arrives on the first load.
    hydrateFallbackElement: <PageSpinner />,
    children: [
      {
        element: <PrivateRoute />,
        children: [
          { path: paths.root, lazy: invoiceScreen },
          { path: paths.invoice, lazy: invoiceScreen },
          { path: paths.admin, lazy: adminScreen },
        ],
      },
      { path: paths.login, element: <LoginRoute /> },
      { path: '*', lazy: notFoundScreen },
    ],
  },
];

export const createRouter = () => createBrowserRouter(routes);
