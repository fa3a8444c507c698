import { createContext, useContext, useState, type ReactNode } from 'react';

/**
 * The app's one place for the QueryClient, made by the first query boundary that loads (query-boundary.tsx):
 * every boundary shares one cache (the header and the admin page read the same account query). It lives apart
 * from the boundary because the lazily loaded provider needs it and the boundary loads the provider.
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
