import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useQueryClientSlot } from './query-client-slot';

/** Loaded by QueryBoundary: the app's one QueryClient, made on first use. */
export default function QueryProvider({ children }: { children: ReactNode }) {
  const slot = useQueryClientSlot();
  slot.client ??= new QueryClient({ defaultOptions: { queries: { refetchOnWindowFocus: false, staleTime: 30_000 } } });
  return <QueryClientProvider client={slot.client as QueryClient}>{children}</QueryClientProvider>;
}
