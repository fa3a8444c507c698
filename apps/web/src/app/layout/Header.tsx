import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from '@/lib/router';
import { useAuth } from '@/lib/auth';
import { paths } from '@/lib/paths';
import { lazyWithPreload } from '@/lib/lazy-with-preload';
import { QueryBoundary } from '@/lib/query-boundary';
import { useTheme } from '@/lib/runtime-config';
import { storedUser } from '@/lib/storage';
import logo from './logo.svg';

// The account lookup (TanStack Query) arrives with the signed-in header, not with the login page.
const AdminLink = lazyWithPreload(() => import('./AdminLink'));

/** Starts loading the signed-in header's code before it renders (see lazyWithPreload). */
export const preloadHeader = AdminLink.preload;
// The header is on the first page: the modal and its component library load when someone asks for it.
const SignOutEverywhereModal = lazy(() => import('@/features/auth/components/SignOutEverywhereModal'));

/**
 * A small menu beside Sign Out for what a person does rarely: "Sign out everywhere". A disclosure (a
 * button that shows a list of buttons), closed by Escape, by a click elsewhere, or by choosing.
 */
function AccountMenu({ onSignOutEverywhere }: { onSignOutEverywhere: () => void }) {
  const [open, setOpen] = useState(false);
  const container = useRef<HTMLDivElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const closeOutside = (event: PointerEvent) => {
      if (!container.current?.contains(event.target as Node)) setOpen(false);
    };
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      toggle.current?.focus();
    };
    document.addEventListener('pointerdown', closeOutside);
    document.addEventListener('keydown', closeOnEscape);
    return () => {
      document.removeEventListener('pointerdown', closeOutside);
      document.removeEventListener('keydown', closeOnEscape);
    };
  }, [open]);

  return (
    <div className="position-relative" ref={container}>
      <button
        ref={toggle}
        type="button"
        className="btn btn-outline-light btn-sm account-menu-toggle"
        aria-label="More account options"
        aria-expanded={open}
        aria-controls="account-menu"
        onClick={() => setOpen(!open)}
      >
        <span aria-hidden="true">⋯</span>
      </button>
      <div id="account-menu" className={`account-menu${open ? ' show' : ''}`}>
        <button
          type="button"
          className="account-menu-item"
          onClick={() => {
            setOpen(false);
            onSignOutEverywhere();
          }}
        >
          Sign out everywhere
        </button>
      </div>
    </div>
  );
}

/** Focus a keyboard brought (a click's focus is the click's to handle); false where the browser cannot tell. */
function focusedByKeyboard(element: Element) {
  try {
    return element.matches(':focus-visible');
  } catch {
    return false;
  }
}

/**
 * The signed-in address: on a phone it shares one line with the logo, Admin Page and Sign Out, so a long one
 * is cut with an ellipsis. A tap (or keyboard focus) shows it whole under the header, a mouse its title.
 */
function HeaderEmail({ email }: { email: string }) {
  const [whole, setWhole] = useState(false);
  return (
    <button
      type="button"
      className="header-email"
      title={email}
      aria-expanded={whole}
      onClick={() => setWhole(!whole)}
      onFocus={(event) => {
        if (focusedByKeyboard(event.currentTarget)) setWhole(true);
      }}
      onBlur={() => setWhole(false)}
    >
      <span className="header-email-text">{email}</span>
      {/* The button's own text is the whole address for a screen reader: this copy is for the eye only. */}
      {whole && (
        <span className="header-email-whole" aria-hidden="true">
          {email}
        </span>
      )}
    </button>
  );
}

function SignedInUser({ email }: { email: string }) {
  const { signOut } = useAuth();
  const navigate = useNavigate();
  const [askEverywhere, setAskEverywhere] = useState(false);

  const onSignOut = async () => {
    await signOut();
    navigate(paths.login, { replace: true });
  };

  return (
    <div className="header-user d-flex align-items-center column-gap-2 column-gap-sm-3 justify-content-end min-w-0">
      <QueryBoundary>
        <AdminLink email={email} />
      </QueryBoundary>
      <HeaderEmail email={email} />
      <AccountMenu onSignOutEverywhere={() => setAskEverywhere(true)} />
      {/* Bootstrap's markup without react-bootstrap: every page starts with the header. */}
      <button type="button" className="btn btn-outline-light btn-sm text-nowrap" onClick={onSignOut}>
        Sign Out
      </button>
      {askEverywhere && (
        <Suspense fallback={null}>
          <SignOutEverywhereModal onCancel={() => setAskEverywhere(false)} onSignedOut={onSignOut} />
        </Suspense>
      )}
    </div>
  );
}

export function Header() {
  const { state } = useAuth();
  const theme = useTheme();
  // The spec: the header shows the user only while a stored user value exists.
  const signedIn = state.status === 'signed-in' && storedUser() !== null;
  return (
    <header className="app-header">
      <nav className="container d-flex align-items-center justify-content-between gap-2" aria-label="Main">
        {/* Signed in on a phone, only the logo shows, so the user's part of the header keeps one line. */}
        <Link
          to={paths.invoice}
          aria-label={theme.productName}
          className="header-logo-link d-flex align-items-center gap-2 text-white text-decoration-none flex-shrink-0"
        >
          <img src={theme.logoUrl ?? logo} alt="" height={32} className="header-logo" />
          <span className={signedIn ? 'fw-semibold d-none d-md-inline' : 'fw-semibold'}>{theme.productName}</span>
        </Link>
        {signedIn && <SignedInUser email={state.user.email} />}
      </nav>
    </header>
  );
}
