import type { RuntimeConfig } from '@portal/contract';
import { FIREBASE_SIGN_IN_ORIGIN } from '@portal/contract/identity-provider';
import './app/bootstrap.scss';
import './app/bootstrap-utilities.scss';
import './app/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { adoptHashRoute } from './app/hash-route';
import { preloadSignedInPage } from './app/router';
import { initErrorReporting } from './lib/error-reporting';
import { reloadOnFailedChunk } from './lib/chunk-reload';
import { createDeferredAuthClient, mayBeSignedIn } from './lib/deferred-auth-client';
import { applyTheme, fetchRuntimeConfig } from './lib/runtime-config';
import { FallbackScreen } from './components/FallbackScreen';
import { PageSpinner } from './components/PageSpinner';

// The spec: any registered service worker is unregistered once ready, so no stale cached build lingers.
void navigator.serviceWorker?.ready.then((registration) => registration.unregister());

adoptHashRoute();
// A chunk of the previous build, gone after a rollout: the page reloads once for the new one (lib/chunk-reload.ts).
reloadOnFailedChunk();
// Someone who may be signed in (a mailed invoice link, most often) needs the Firebase SDK and the screen's
// code whatever the configuration says: both start now, beside /config.json, instead of after it.
const signedInHere = mayBeSignedIn(localStorage);
if (signedInHere) preloadSignedInPage(window.location.pathname);
const root = createRoot(document.getElementById('root')!);

/**
 * A signed-in page draws once the identity provider has answered Firebase's account lookup: its connection
 * is opened beside the SDK's download instead of after it (one round trip less; a TLS handshake, with
 * Firebase itself). Anonymous, as the SDK's own requests are.
 */
function preconnectIdentityProvider(config: RuntimeConfig) {
  const link = document.createElement('link');
  link.rel = 'preconnect';
  link.href = config.authEmulatorUrl ?? FIREBASE_SIGN_IN_ORIGIN;
  link.crossOrigin = 'anonymous';
  document.head.append(link);
}

/** Loads the configuration and starts the app; on failure says so and offers to try again. */
async function boot() {
  try {
    const config = await fetchRuntimeConfig();
    performance.mark('portal:config');
    if (signedInHere) preconnectIdentityProvider(config);
    initErrorReporting(config.sentry);
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
