import { lazy, useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { useOnFirstInteraction } from '@/hooks/use-first-interaction';
import { usePageTitle } from '@/hooks/use-page-title';
import { CompanySignInRefused, useAuth } from '@/lib/auth';
import { QueryBoundary } from '@/lib/query-boundary';
import { useRuntimeConfig } from '@/lib/runtime-config';
import { watchNextPopup } from '@/lib/popup-watch';
import {
  MISSING_CREDENTIALS_MESSAGE,
  signInErrorMessage,
  ssoButtonLabel,
  ssoLinkCancelLabel,
  ssoSignInErrorMessage,
} from '../messages';

// Plain Bootstrap markup rather than react-bootstrap components: the first page a phone loads carries no
// component library. Loaded on demand: form validation code is not needed to sign in.
const ForgotPasswordModal = lazy(() => import('./ForgotPasswordModal'));

export function LoginScreen() {
  const { client, state } = useAuth();
  const notice = state.status === 'signed-out' ? state.notice : undefined;
  const [form, setForm] = useState({ email: '', pass: '' });
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  // The company sign-in's own busy state: its spinner on its own button, not on the password's Submit.
  const [ssoBusy, setSsoBusy] = useState(false);
  const [forgotOpen, setForgotOpen] = useState(false);
  const [showPassword, setShowPassword] = useState(false);
  /** A company sign-in the portal links once the password is typed here (decision 0087), with its sentence. */
  const [link, setLink] = useState<{ companyIdToken: string; prompt: string } | null>(null);
  const passwordField = useRef<HTMLInputElement>(null);
  const { sso } = useRuntimeConfig();
  usePageTitle('Login');

  // Asked for the password to link: the one thing left to do is to type it.
  useEffect(() => {
    if (link) passwordField.current?.focus();
  }, [link]);

  // The pop-up must open within the click, not after the SDK has downloaded; but a login page only looked at
  // (or used with a password) must not pay the SDK and its pop-up helper before anyone starts to use it. So they
  // load on the first press or key anywhere on the page, and at the latest when the pointer or the focus reaches
  // the button, before its click.
  const prepareSso = useCallback(() => {
    if (sso) void client.prepareProviderSignIn().catch(() => {});
  }, [client, sso]);
  useOnFirstInteraction(Boolean(sso), prepareSso);

  const onSso = async () => {
    if (!sso) return;
    setSsoBusy(true);
    setError(null);
    setLink(null);
    // Closing the pop-up gives the form back at once, not when the SDK gets round to saying so.
    const stopWatching = watchNextPopup(() => setSsoBusy(false));
    try {
      await client.signInWithProvider(sso.providerId);
    } catch (signInError) {
      if (signInError instanceof CompanySignInRefused && signInError.linkRequired) {
        // Not a failure: the password typed below links the company account and keeps the password.
        setLink({ companyIdToken: signInError.companyIdToken, prompt: signInError.message });
        setForm({ email: signInError.email, pass: '' });
      } else {
        setError(ssoSignInErrorMessage(signInError, sso.label));
      }
      setSsoBusy(false);
    } finally {
      stopWatching();
    }
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!form.email.trim() || !form.pass) {
      setError(MISSING_CREDENTIALS_MESSAGE);
      return;
    }
    setSubmitting(true);
    setError(null);
    try {
      if (link) await client.signInAndLinkProvider(form.email.trim(), form.pass, link.companyIdToken);
      else await client.signIn(form.email.trim(), form.pass);
    } catch (signInError) {
      setError(signInErrorMessage(signInError));
      setSubmitting(false);
    }
  };

  return (
    <main className="container py-4 py-sm-5 login-container">
      <div className="card shadow-sm">
        <div className="card-body p-4">
          <h1 className="h3 mb-4">Login</h1>
          {link && !error && (
            <div className="alert alert-info" role="status">
              {link.prompt}
            </div>
          )}
          {notice && !error && !link && (
            <div className="alert alert-info" role="status">
              {notice}
            </div>
          )}
          {error && (
            <div className="alert alert-danger" role="alert">
              {error}
            </div>
          )}
          {/* noValidate: the fields keep `required`, and the spec's own message explains what is missing. */}
          <form noValidate onSubmit={onSubmit}>
            <div className="mb-3">
              <label className="form-label" htmlFor="login-email">
                Email address
              </label>
              <input
                id="login-email"
                className="form-control"
                type="email"
                required
                autoComplete="username"
                inputMode="email"
                // The one thing to do on this page: type the address.
                autoFocus
                value={form.email}
                onChange={(event) => setForm({ ...form, email: event.target.value })}
              />
            </div>
            <div className="mb-4">
              <label className="form-label" htmlFor="login-password">
                Password
              </label>
              <div className="input-group">
                <input
                  id="login-password"
                  ref={passwordField}
                  className="form-control"
                  type={showPassword ? 'text' : 'password'}
                  required
                  autoComplete="current-password"
                  value={form.pass}
                  onChange={(event) => setForm({ ...form, pass: event.target.value })}
                />
                <button
                  type="button"
                  className="btn btn-outline-secondary"
                  aria-pressed={showPassword}
                  aria-controls="login-password"
                  onClick={() => setShowPassword(!showPassword)}
                >
                  {showPassword ? 'Hide' : 'Show'}
                  <span className="visually-hidden"> password</span>
                </button>
              </div>
            </div>
            <div className="d-flex justify-content-between align-items-center">
              <button type="button" className="btn btn-link px-0" onClick={() => setForgotOpen(true)}>
                Forgot Password
              </button>
              <button type="submit" className="btn btn-primary" disabled={submitting || ssoBusy} aria-busy={submitting}>
                {/* Signing in can take a few seconds on a phone's network: the button shows it is at it. */}
                {submitting && <span className="spinner-border spinner-border-sm me-2" aria-hidden="true" />}
                Submit
              </button>
            </div>
          </form>
          {link && (
            <button type="button" className="btn btn-link px-0 mt-2" onClick={() => setLink(null)}>
              {ssoLinkCancelLabel(sso?.label ?? '')}
            </button>
          )}
          {sso && (
            <>
              <div className="login-divider my-4" aria-hidden="true">
                or
              </div>
              <button
                type="button"
                className="btn btn-outline-primary w-100 login-sso"
                disabled={submitting || ssoBusy}
                aria-busy={ssoBusy}
                onPointerEnter={prepareSso}
                onFocus={prepareSso}
                onClick={() => void onSso()}
              >
                {ssoBusy && <span className="spinner-border spinner-border-sm me-2" aria-hidden="true" />}
                {ssoButtonLabel(sso.label)}
              </button>
            </>
          )}
        </div>
      </div>
      {forgotOpen && (
        <QueryBoundary>
          <ForgotPasswordModal initialEmail={form.email.trim()} onClose={() => setForgotOpen(false)} />
        </QueryBoundary>
      )}
    </main>
  );
}
