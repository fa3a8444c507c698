import type { RuntimeConfig } from '@portal/contract';
import { useState } from 'react';
import { RouterProvider } from 'react-router';
import type { AuthClient } from '@/lib/auth';
import { AppProvider } from './provider';
import { createRouter } from './router';

export function App({ config, authClient }: { config: RuntimeConfig; authClient: AuthClient }) {
  const [router] = useState(createRouter);
  return (
    <AppProvider config={config} authClient={authClient}>
      <RouterProvider router={router} />
    </AppProvider>
  );
}
