import type { RuntimeConfig } from '@portal/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { ErrorBoundary } from '@/components/ErrorBoundary';
import { ApiClientProvider } from '@/lib/api-client';
import { AuthProvider, type AuthClient } from '@/lib/auth';
import { RuntimeConfigProvider } from '@/lib/runtime-config';

export function AppProvider({
  config,
  authClient,
  children,
}: {
  config: RuntimeConfig;
  authClient: AuthClient;
  children: ReactNode;
}) {
  const [queryClient] = useState(
    () => new QueryClient({ defaultOptions: { queries: { refetchOnWindowFocus: false, staleTime: 30_000 } } }),
  );
  return (
    <ErrorBoundary>
      <RuntimeConfigProvider config={config}>
        <AuthProvider client={authClient}>
          <ApiClientProvider>
            <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
          </ApiClientProvider>
        </AuthProvider>
      </RuntimeConfigProvider>
    </ErrorBoundary>
  );
}
