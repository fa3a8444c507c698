import {
  Children,
  createContext,
  isValidElement,
  startTransition,
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
  useState,
  type AnchorHTMLAttributes,
  type MouseEvent,
  type ReactElement,
  type ReactNode,
} from 'react';

/**
 * The portal's own router, for its handful of exact paths: what the app used of React Router's declarative API
 * (routes with layouts, links, redirects, the address's query string), at about a tenth of its size on the login
 * page (decision 123). Same names and behaviour as React Router's, so a screen reads as it did: an address change
 * renders as a transition (the screen on show stays while the next one loads), a link to the address on show
 * replaces it instead of stacking it, and navigation state travels in the History API's state.
 */

export interface Path {
  pathname: string;
  search: string;
  hash: string;
}

export interface Location extends Path {
  state: unknown;
  /** Tells two visits of the same address apart. */
  key: string;
}

export type To = string | Partial<Path>;
export type NavigationType = 'POP' | 'PUSH' | 'REPLACE';

export interface NavigateOptions {
  replace?: boolean;
  state?: unknown;
}

interface History {
  location: Location;
  action: NavigationType;
  push(path: Path, state: unknown): void;
  replace(path: Path, state: unknown): void;
  go(delta: number): void;
  listen(listener: () => void): () => void;
}

/** `/a?b=1#c` as its parts. */
export function parsePath(path: string): Path {
  const hashAt = path.indexOf('#');
  const hash = hashAt >= 0 ? path.slice(hashAt) : '';
  const rest = hashAt >= 0 ? path.slice(0, hashAt) : path;
  const searchAt = rest.indexOf('?');
  return {
    pathname: (searchAt >= 0 ? rest.slice(0, searchAt) : rest) || '/',
    search: searchAt >= 0 ? rest.slice(searchAt) : '',
    hash,
  };
}

export const createPath = ({ pathname, search, hash }: Path) =>
  pathname + (search && search !== '?' ? search : '') + (hash && hash !== '#' ? hash : '');

/** Where `to` leads from `from`: a string is a whole address; an object keeps the parts it leaves out. */
function resolve(to: To, from: Path): Path {
  if (typeof to === 'string') return parsePath(to);
  return { pathname: to.pathname ?? from.pathname, search: to.search ?? '', hash: to.hash ?? '' };
}

const newKey = () => Math.random().toString(36).slice(2, 10);

function createBrowserHistory(): History {
  const listeners = new Set<() => void>();
  const read = (): Location => {
    const stored = window.history.state as { usr?: unknown; key?: string } | null;
    const { pathname, search, hash } = window.location;
    return { pathname, search, hash, state: stored?.usr ?? null, key: stored?.key ?? 'default' };
  };
  const history: History = {
    location: read(),
    action: 'POP',
    push(path, state) {
      const key = newKey();
      window.history.pushState({ usr: state, key }, '', createPath(path));
      settle('PUSH');
    },
    replace(path, state) {
      const key = newKey();
      window.history.replaceState({ usr: state, key }, '', createPath(path));
      settle('REPLACE');
    },
    go: (delta) => window.history.go(delta),
    listen(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  function settle(action: NavigationType) {
    history.location = read();
    history.action = action;
    for (const listener of listeners) listener();
  }
  // One router a page, for the page's life: nothing to take off again.
  window.addEventListener('popstate', () => settle('POP'));
  return history;
}

function createMemoryHistory(initialEntries: (string | (Partial<Path> & { state?: unknown }))[]): History {
  const entries: Location[] = initialEntries.map((entry) => {
    const path = typeof entry === 'string' ? parsePath(entry) : { ...parsePath('/'), ...entry };
    const state = typeof entry === 'string' ? null : (entry.state ?? null);
    return { pathname: path.pathname, search: path.search, hash: path.hash, state, key: newKey() };
  });
  if (entries.length === 0) entries.push({ ...parsePath('/'), state: null, key: 'default' });
  let index = entries.length - 1;
  const listeners = new Set<() => void>();
  const history: History = {
    location: entries[index]!,
    action: 'POP',
    push(path, state) {
      entries.splice(index + 1, entries.length, { ...path, state: state ?? null, key: newKey() });
      index += 1;
      settle('PUSH');
    },
    replace(path, state) {
      entries[index] = { ...path, state: state ?? null, key: newKey() };
      settle('REPLACE');
    },
    go(delta) {
      const next = Math.min(Math.max(index + delta, 0), entries.length - 1);
      if (next === index) return;
      index = next;
      settle('POP');
    },
    listen(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  function settle(action: NavigationType) {
    history.location = entries[index]!;
    history.action = action;
    for (const listener of listeners) listener();
  }
  return history;
}

interface RouterState {
  history: History;
  location: Location;
  action: NavigationType;
}

const RouterContext = createContext<RouterState | null>(null);

function useRouter(): RouterState {
  const router = useContext(RouterContext);
  if (!router) throw new Error('a router hook was used outside <BrowserRouter> or <MemoryRouter>');
  return router;
}

function Router({ history, children }: { history: History; children: ReactNode }) {
  const [state, setState] = useState({ location: history.location, action: history.action });
  useLayoutEffect(
    () => history.listen(() => startTransition(() => setState({ location: history.location, action: history.action }))),
    [history],
  );
  const value = useMemo(() => ({ history, ...state }), [history, state]);
  return <RouterContext.Provider value={value}>{children}</RouterContext.Provider>;
}

export function BrowserRouter({ children }: { children: ReactNode }) {
  const [history] = useState(createBrowserHistory);
  return <Router history={history}>{children}</Router>;
}

/** The router tests render the app in: the addresses are kept in memory, the last entry on show. */
export function MemoryRouter({
  initialEntries = ['/'],
  children,
}: {
  initialEntries?: (string | (Partial<Path> & { state?: unknown }))[];
  children: ReactNode;
}) {
  const [history] = useState(() => createMemoryHistory(initialEntries));
  return <Router history={history}>{children}</Router>;
}

export const useLocation = (): Location => useRouter().location;

export const useNavigationType = (): NavigationType => useRouter().action;

export function useNavigate() {
  const { history, location } = useRouter();
  return useMemo(
    () =>
      (to: To | number, options: NavigateOptions = {}) => {
        if (typeof to === 'number') return history.go(to);
        const path = resolve(to, location);
        if (options.replace) history.replace(path, options.state);
        else history.push(path, options.state);
      },
    [history, location],
  );
}

/** Goes to `to` once rendered: a route's answer that the page is elsewhere. */
export function Navigate({ to, replace, state }: { to: To } & NavigateOptions) {
  const navigate = useNavigate();
  const target = typeof to === 'string' ? to : JSON.stringify(to);
  useEffect(() => {
    navigate(to, { replace, state });
  }, [target]); // eslint-disable-line react-hooks/exhaustive-deps
  return null;
}

export function useSearchParams() {
  const { location } = useRouter();
  const navigate = useNavigate();
  const params = useMemo(() => new URLSearchParams(location.search), [location.search]);
  const set = (next: URLSearchParams, options: NavigateOptions = {}) => {
    const search = next.toString();
    navigate({ pathname: location.pathname, search: search ? `?${search}` : '' }, options);
  };
  return [params, set] as const;
}

type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & { to: To } & NavigateOptions;

/** A link the router follows itself; a modified click (new tab, download) is left to the browser. */
export function Link({ to, replace, state, onClick, target, ...anchor }: LinkProps) {
  const { location } = useRouter();
  const navigate = useNavigate();
  const href = createPath(resolve(to, location));
  const follow = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    const plain = event.button === 0 && !event.metaKey && !event.altKey && !event.ctrlKey && !event.shiftKey;
    if (event.defaultPrevented || !plain || (target && target !== '_self')) return;
    event.preventDefault();
    // As React Router does: a link to the address on show replaces it, so Back does not stay on the same page.
    navigate(to, { replace: replace ?? href === createPath(location), state });
  };
  return <a {...anchor} href={href} target={target} onClick={follow} />;
}

export interface RouteProps {
  /** Absent: a layout around its child routes, drawn through `<Outlet />`. `*` matches any address. */
  path?: string;
  /** Kept for reading: every path here matches only as written. */
  caseSensitive?: boolean;
  element: ReactNode;
  children?: ReactNode;
}

/** One route of `<Routes>`; `<Routes>` reads it, it draws nothing itself. */
export function Route(_props: RouteProps): ReactElement | null {
  return null;
}

type Branch = RouteProps[];

function branchesOf(children: ReactNode, above: Branch = []): Branch[] {
  const branches: Branch[] = [];
  Children.forEach(children, (child) => {
    if (!isValidElement<RouteProps>(child)) return;
    const branch = [...above, child.props];
    if (child.props.path !== undefined) branches.push(branch);
    else branches.push(...branchesOf(child.props.children, branch));
  });
  return branches;
}

const OutletContext = createContext<ReactNode>(null);

/** Where a layout route draws the route matched inside it. */
export const Outlet = () => useContext(OutletContext);

/**
 * The routes, matched against the address on show: a path as written first, `*` when none is. Paths match
 * exactly (case and trailing slash included): the spec's route table sends any other address to Page Not Found.
 */
export function Routes({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  const branches = branchesOf(children);
  const branch =
    branches.find((candidate) => candidate[candidate.length - 1]!.path === pathname) ??
    branches.find((candidate) => candidate[candidate.length - 1]!.path === '*');
  if (!branch) return null;
  return branch.reduceRight<ReactNode>(
    (inner, route) => <OutletContext.Provider value={inner}>{route.element}</OutletContext.Provider>,
    null,
  );
}
