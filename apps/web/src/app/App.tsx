import type { RuntimeConfig } from '@portal/contract';
import { BrowserRouter } from '@/lib/router';
import type { AuthClient } from '@/lib/auth';
import { AppProvider } from './provider';
import { AppRoutes } from './router';

export function App({ config, authClient }: { config: RuntimeConfig; authClient: AuthClient }) {
  return (
    <AppProvider config={config} authClient={authClient}>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </AppProvider>
  );
}
