import { act, fireEvent, render, screen } from '@testing-library/react';
import { useLayoutEffect } from 'react';
import {
  BrowserRouter,
  Link,
  MemoryRouter,
  Navigate,
  Outlet,
  parsePath,
  Route,
  Routes,
  useLocation,
  useNavigate,
  useNavigationType,
  useSearchParams,
  type Location,
  type NavigationType,
} from './router';

interface Seen {
  location?: Location;
  action?: NavigationType;
  navigate?: ReturnType<typeof useNavigate>;
}

function Probe({ seen }: { seen: Seen }) {
  const location = useLocation();
  const action = useNavigationType();
  const navigate = useNavigate();
  useLayoutEffect(() => {
    Object.assign(seen, { location, action, navigate });
  });
  return null;
}

function Layout() {
  return (
    <main>
      <p>layout</p>
      <Outlet />
    </main>
  );
}

function renderAt(entry: string | { pathname: string; state?: unknown }, seen: Seen = {}) {
  render(
    <MemoryRouter initialEntries={[entry]}>
      <Routes>
        <Route element={<Layout />}>
          <Route caseSensitive path="/invoice" element={<p>invoice</p>} />
          <Route caseSensitive path="/login" element={<p>login</p>} />
          <Route caseSensitive path="/away" element={<Navigate to="/login" replace state={{ from: 'away' }} />} />
          <Route path="*" element={<p>not found</p>} />
        </Route>
      </Routes>
      <Probe seen={seen} />
    </MemoryRouter>,
  );
  return seen;
}

describe('the portal’s router', () => {
  it('draws the route of the address inside its layout', () => {
    renderAt('/invoice');
    expect(screen.getByText('layout')).toBeInTheDocument();
    expect(screen.getByText('invoice')).toBeInTheDocument();
  });

  it.each(['/INVOICE', '/invoice/', '/nowhere'])('sends %s, not written as a route is, to the catch-all', (path) => {
    renderAt(path);
    expect(screen.getByText('not found')).toBeInTheDocument();
    expect(screen.queryByText('invoice')).not.toBeInTheDocument();
  });

  it('redirects with state, replacing the address it was asked for', async () => {
    const seen = renderAt('/away');
    expect(await screen.findByText('login')).toBeInTheDocument();
    expect(seen.location).toMatchObject({ pathname: '/login', state: { from: 'away' } });
    expect(seen.action).toBe('REPLACE');
  });

  it('follows pushes, and Back returns to the page before', async () => {
    const seen = renderAt('/login');
    act(() => seen.navigate!('/invoice?parcelCode=A1#top'));
    expect(await screen.findByText('invoice')).toBeInTheDocument();
    expect(seen.location).toMatchObject({ pathname: '/invoice', search: '?parcelCode=A1', hash: '#top' });
    expect(seen.action).toBe('PUSH');
    act(() => seen.navigate!(-1));
    expect(await screen.findByText('login')).toBeInTheDocument();
    expect(seen.action).toBe('POP');
  });

  it('parses an address into its parts', () => {
    expect(parsePath('/a?b=1#c')).toEqual({ pathname: '/a', search: '?b=1', hash: '#c' });
    expect(parsePath('?b=1')).toEqual({ pathname: '/', search: '?b=1', hash: '' });
  });
});

describe('a router link', () => {
  function renderLink(from: string, seen: Seen) {
    render(
      <MemoryRouter initialEntries={[from]}>
        <Link to="/invoice?parcelCode=A1" state={{ from: 'results' }}>
          Open
        </Link>
        <Probe seen={seen} />
      </MemoryRouter>,
    );
    return screen.getByRole('link', { name: 'Open' });
  }

  it('is a real link, followed by the router with its state', async () => {
    const seen: Seen = {};
    const link = renderLink('/finance', seen);
    expect(link).toHaveAttribute('href', '/invoice?parcelCode=A1');
    fireEvent.click(link);
    await vi.waitFor(() => expect(seen.location?.pathname).toBe('/invoice'));
    expect(seen.location?.state).toEqual({ from: 'results' });
    expect(seen.action).toBe('PUSH');
  });

  it('replaces the address on show instead of stacking it again', async () => {
    const seen: Seen = {};
    const link = renderLink('/invoice?parcelCode=A1', seen);
    fireEvent.click(link);
    await vi.waitFor(() => expect(seen.action).toBe('REPLACE'));
  });

  it('leaves a click with a modifier (a new tab) to the browser', () => {
    const seen: Seen = {};
    const link = renderLink('/finance', seen);
    const followedByBrowser = fireEvent.click(link, { ctrlKey: true });
    expect(followedByBrowser).toBe(true);
    expect(seen.location?.pathname).toBe('/finance');
  });
});

describe('the address’s query string', () => {
  it('is read, and written back with the path kept and the hash dropped', async () => {
    const seen: Seen = {};
    function Tab() {
      const [query, setQuery] = useSearchParams();
      return (
        <button type="button" onClick={() => setQuery(new URLSearchParams({ tab: 'audit' }), { replace: true })}>
          tab {query.get('tab')}
        </button>
      );
    }
    render(
      <MemoryRouter initialEntries={['/admin?tab=users#list']}>
        <Tab />
        <Probe seen={seen} />
      </MemoryRouter>,
    );
    expect(screen.getByText('tab users')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button'));
    expect(await screen.findByText('tab audit')).toBeInTheDocument();
    expect(seen.location).toMatchObject({ pathname: '/admin', search: '?tab=audit', hash: '' });
    expect(seen.action).toBe('REPLACE');
  });
});

describe('the browser’s router', () => {
  it('writes the address and its state to the browser’s history, and follows Back', async () => {
    window.history.replaceState(null, '', '/login');
    const seen: Seen = {};
    render(
      <BrowserRouter>
        <Probe seen={seen} />
      </BrowserRouter>,
    );
    expect(seen.location).toMatchObject({ pathname: '/login', state: null });
    act(() => seen.navigate!('/invoice?parcelCode=A1', { state: { from: 'login' } }));
    expect(window.location.pathname + window.location.search).toBe('/invoice?parcelCode=A1');
    await vi.waitFor(() => expect(seen.location).toMatchObject({ pathname: '/invoice', state: { from: 'login' } }));
    // jsdom moves through history a moment later, as a browser does.
    await act(async () => {
      window.history.back();
      await new Promise((resolve) => setTimeout(resolve, 50));
    });
    expect(seen.location?.pathname).toBe('/login');
    expect(seen.action).toBe('POP');
  });
});
