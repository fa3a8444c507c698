import type { RuntimeConfig } from '@portal/contract';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, parsePath, RouterProvider } from 'react-router';
import { AppProvider } from '@/app/provider';
import { routes } from '@/app/router';
import { API } from './msw-server';
import { createFakeAuthClient, type FakeAuthClient } from './fake-auth-client';

export const testConfig: RuntimeConfig = {
  apiBaseUrl: API,
  firebase: { apiKey: 'test-key', projectId: 'demo-test' },
  supportContact: 'the UK IT team',
};

/** Renders the whole app (real routes, providers and API client) at `path` (which may carry a query and a hash). */
export function renderApp(
  path: string,
  options: { auth?: FakeAuthClient; state?: unknown; config?: Partial<RuntimeConfig> } = {},
) {
  const auth = options.auth ?? createFakeAuthClient();
  const router = createMemoryRouter(routes, {
    initialEntries: [{ ...parsePath(path), state: options.state }],
  });
  const user = userEvent.setup();
  const view = render(
    <AppProvider config={{ ...testConfig, ...options.config }} authClient={auth}>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return { ...view, user, auth, router };
}
