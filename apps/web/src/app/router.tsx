import { lazy, type ComponentType } from 'react';
import { Route, Routes } from 'react-router';
import { LoginRoute } from '@/features/auth/components/LoginRoute';
import { paths } from '@/lib/paths';
import { AppLayout } from './layout/AppLayout';
import { PrivateRoute } from './routes/PrivateRoute';

/**
 * Declarative routes (React Router's component API, not its data router): the data router's loaders,
 * actions and fetchers, which no screen uses, were 15 KB of the login page's script (brotli). The screens
 * load on demand; each loader is shared, so `preloadScreenFor` can start one at boot, before the sign-in
 * state is known, and the screen then renders as soon as it is.
 */
const screenLoaders = {
  invoice: () => import('@/features/invoice/components/InvoiceScreen'),
  admin: () => import('@/features/admin/components/AdminUsersScreen'),
  notFound: () => import('./routes/NotFoundScreen').then((module) => ({ default: module.NotFoundScreen })),
};
const started = new Map<keyof typeof screenLoaders, Promise<{ default: ComponentType }>>();
const load = (screen: keyof typeof screenLoaders) => () => {
  let promise = started.get(screen);
  if (!promise) {
    promise = screenLoaders[screen]();
    started.set(screen, promise);
  }
  return promise;
};

const InvoiceScreen = lazy(load('invoice'));
const AdminUsersScreen = lazy(load('admin'));
const NotFoundScreen = lazy(load('notFound'));

/** Starts loading the code of the screen at `pathname`, if it is a private one (the login page has its own). */
export function preloadScreenFor(pathname: string) {
  if (pathname === paths.root || pathname === paths.invoice) void load('invoice')();
  else if (pathname === paths.admin) void load('admin')();
}

export function AppRoutes() {
  return (
    <Routes>
      <Route element={<AppLayout />}>
        <Route element={<PrivateRoute />}>
          <Route path={paths.root} element={<InvoiceScreen />} />
          <Route path={paths.invoice} element={<InvoiceScreen />} />
          <Route path={paths.admin} element={<AdminUsersScreen />} />
        </Route>
        <Route path={paths.login} element={<LoginRoute />} />
        <Route path="*" element={<NotFoundScreen />} />
      </Route>
    </Routes>
  );
}
