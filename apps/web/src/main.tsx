import './app/bootstrap.scss';
import './app/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { adoptHashRoute } from './app/hash-route';
import { preloadSignedInPage } from './app/router';
import { initErrorReporting } from './lib/error-reporting';
import { createDeferredAuthClient, mayBeSignedIn } from './lib/deferred-auth-client';
import { applyTheme, fetchRuntimeConfig } from './lib/runtime-config';
import { FallbackScreen } from './components/FallbackScreen';
import { PageSpinner } from './components/PageSpinner';

// The spec: any registered service worker is unregistered once ready, so no stale cached build lingers.
void navigator.serviceWorker?.ready.then((registration) => registration.unregister());

adoptHashRoute();
// Someone who may be signed in (a mailed invoice link, most often) needs the Firebase SDK and the screen's
// code whatever the configuration says: both start now, beside /config.json, instead of after it.
if (mayBeSignedIn(localStorage)) {
  void import('./lib/firebase');
  preloadSignedInPage(window.location.pathname);
}
const root = createRoot(document.getElementById('root')!);

/** Loads the configuration and starts the app; on failure says so and offers to try again. */
async function boot() {
  try {
    const config = await fetchRuntimeConfig();
    performance.mark('portal:config');
    void initErrorReporting(config.sentry);
    applyTheme(config.theme);
    root.render(
      <StrictMode>
        <App config={config} authClient={createDeferredAuthClient(config)} />
      </StrictMode>,
    );
  } catch (error) {
    console.error(error);
    root.render(
      <FallbackScreen>
        <p>The portal could not load its configuration. Please try again in a minute.</p>
        <button
          type="button"
          className="btn btn-primary"
          onClick={() => {
            root.render(<PageSpinner />);
            void boot();
          }}
        >
          Try again
        </button>
      </FallbackScreen>,
    );
  }
}

await boot();
