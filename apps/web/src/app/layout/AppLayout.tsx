import { Suspense } from 'react';
import { Outlet } from '@/lib/router';
import { PageSpinner } from '@/components/PageSpinner';
import { Header } from './Header';

export function AppLayout() {
  return (
    <>
      <Header />
      {/* While a screen's code arrives; a render error in it reaches the app's error boundary. */}
      <Suspense fallback={<PageSpinner />}>
        <Outlet />
      </Suspense>
    </>
  );
}
