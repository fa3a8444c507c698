/**
 * The app rendered as render-app.tsx does, without loading the code the app loads on demand first: for a test
 * that needs that code NOT to have arrived yet (the network dropping after the first paint). Every other test
 * imports render-app.tsx.
 */
import type { RuntimeConfig } from '@portal/contract';
import { render } from '@testing-library/react';
import { useLayoutEffect } from 'react';
import userEvent from '@testing-library/user-event';
import {
  MemoryRouter,
  parsePath,
  useLocation,
  useNavigate,
  useNavigationType,
  type Location,
  type NavigationType,
  type To,
} from '@/lib/router';
import { AppProvider } from '@/app/provider';
import { AppRoutes } from '@/app/router';
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
  const router = createRouterProbe();
  const user = userEvent.setup();
  const view = render(
    <AppProvider config={{ ...testConfig, ...options.config }} authClient={auth}>
      <MemoryRouter initialEntries={[{ ...parsePath(path), state: options.state }]}>
        <AppRoutes />
        <RouterProbe probe={router} />
      </MemoryRouter>
    </AppProvider>,
  );
  return { ...view, user, auth, router };
}

interface RouterProbeState {
  state: { location: Location; historyAction: NavigationType };
  navigateTo?: (to: To | number) => void;
  /** A path, or a step through history as the Back (-1) and Forward (1) buttons take it. */
  navigate(to: To | number): void;
  record(state: RouterProbeState['state'], navigateTo: (to: To | number) => void): void;
}

/** Where the app's router is, and a way to navigate it from a test, as the app sees them. */
function createRouterProbe(): RouterProbeState {
  return {
    state: {
      location: { pathname: '', search: '', hash: '', state: null, key: '' },
      historyAction: 'POP' as NavigationType,
    },
    navigate(to) {
      if (!this.navigateTo) throw new Error('the router has not rendered yet');
      this.navigateTo(to);
    },
    record(state, navigateTo) {
      this.state = state;
      this.navigateTo = navigateTo;
    },
  };
}

function RouterProbe({ probe }: { probe: RouterProbeState }) {
  const location = useLocation();
  const historyAction = useNavigationType();
  const navigate = useNavigate();
  useLayoutEffect(() => {
    probe.record({ location, historyAction }, (to) => void (typeof to === 'number' ? navigate(to) : navigate(to)));
  });
  return null;
}
