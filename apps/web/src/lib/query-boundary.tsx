import { Suspense, type ReactNode } from 'react';
import { lazyWithPreload } from './lazy-with-preload';

/**
 * TanStack Query, out of the first load: the login form needs none of it, so its code (and the one
 * QueryClient, kept in the app's slot: query-client-slot.tsx) arrive with the first part of the page that
 * does — a private screen, the header's admin link, the forgot-password modal.
 */
const QueryProvider = lazyWithPreload(() => import('./query-provider'));

/** Starts loading the query layer before a private page renders (see lazyWithPreload). */
export const preloadQueryBoundary = QueryProvider.preload;

/** Renders `children` inside the app's QueryClientProvider, `fallback` while its code loads. */
export function QueryBoundary({ children, fallback = null }: { children: ReactNode; fallback?: ReactNode }) {
  return (
    <Suspense fallback={fallback}>
      <QueryProvider>{children}</QueryProvider>
    </Suspense>
  );
}
