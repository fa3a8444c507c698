import { createContext, Suspense, useContext, useState, type ReactNode } from 'react';
import { lazyWithPreload } from './lazy-with-preload';

/**
 * TanStack Query, out of the first load: the login form needs none of it, so its code (and the one
 * QueryClient) arrive with the first part of the page that does — a private screen, the header's admin
 * link, the forgot-password modal. The app holds one slot for the client, so every boundary shares one
 * cache (the header and the admin page read the same account query).
 */
export interface QueryClientSlot {
  client?: unknown;
}

const QueryClientSlotContext = createContext<QueryClientSlot | null>(null);

export function QueryClientSlotProvider({ children }: { children: ReactNode }) {
  const [slot] = useState<QueryClientSlot>({});
  return <QueryClientSlotContext value={slot}>{children}</QueryClientSlotContext>;
}

export function useQueryClientSlot(): QueryClientSlot {
  const slot = useContext(QueryClientSlotContext);
  if (!slot) throw new Error('QueryBoundary must be used inside QueryClientSlotProvider');
  return slot;
}

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
