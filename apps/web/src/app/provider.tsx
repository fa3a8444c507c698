import type { RuntimeConfig } from '@portal/contract';
import type { ReactNode } from 'react';
import { ErrorBoundary } from '@/components/ErrorBoundary';
import { ApiClientProvider } from '@/lib/api-client';
import { AuthProvider, type AuthClient } from '@/lib/auth';
import { QueryClientSlotProvider } from '@/lib/query-client-slot';
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
  return (
    <ErrorBoundary>
      <RuntimeConfigProvider config={config}>
        <AuthProvider client={authClient}>
          <ApiClientProvider>
            <QueryClientSlotProvider>{children}</QueryClientSlotProvider>
          </ApiClientProvider>
        </AuthProvider>
      </RuntimeConfigProvider>
    </ErrorBoundary>
  );
}
