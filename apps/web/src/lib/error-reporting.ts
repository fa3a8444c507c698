import type { RuntimeConfig } from '@portal/contract';
import { onFirstInteraction } from './first-interaction';
import type * as SentrySdk from './sentry-sdk';

/**
 * Error reporting through the Sentry SDK, loaded only when a DSN is configured, and then only once the page
 * has something to report or someone starts to use it (their first press or key): a login page only looked at
 * does not download it. Errors raised before the SDK arrives, reported or uncaught, are queued and sent once it
 * has; the first of them asks for it at once.
 */
type Sdk = typeof SentrySdk;

let sdk: Sdk | undefined;
let configured: NonNullable<RuntimeConfig['sentry']> | undefined;
let loading: Promise<void> | undefined;
const pending: { error: unknown; componentStack?: string }[] = [];
let stopWaitingForInteraction: (() => void) | undefined;

const onUncaughtError = (event: ErrorEvent) => queue(event.error ?? event.message);
const onUnhandledRejection = (event: PromiseRejectionEvent) => queue(event.reason);

function stopWaiting() {
  stopWaitingForInteraction?.();
  window.removeEventListener('error', onUncaughtError);
  window.removeEventListener('unhandledrejection', onUnhandledRejection);
}

function send(sentry: Sdk, { error, componentStack }: { error: unknown; componentStack?: string }) {
  sentry.captureException(error, componentStack ? { contexts: { react: { componentStack } } } : undefined);
}

function loadSdk(): Promise<void> {
  const config = configured;
  if (!config) return Promise.resolve();
  return (loading ??= import('./sentry-sdk').then((sentry) => {
    // From here the SDK's own handlers report uncaught errors.
    stopWaiting();
    sentry.init({
      dsn: config.dsn,
      environment: config.environment,
      // The build's name: its uploaded source maps are found by it.
      release: config.release,
      attachStacktrace: true,
      // The default integrations report global errors and unhandled rejections and keep breadcrumbs; neither
      // may carry a parcel code or an e-mail address (the invoice link's query, the /users/<email> calls).
      beforeBreadcrumb: sentry.scrubBreadcrumb,
      beforeSend: sentry.scrubEvent,
    });
    sdk = sentry;
    for (const report of pending.splice(0)) send(sentry, report);
  }));
}

/** Starts the SDK's download; one that failed is asked for again by the next error. */
function startLoading() {
  loadSdk().catch(() => {
    loading = undefined;
  });
}

function queue(error: unknown, componentStack?: string) {
  pending.push({ error, componentStack });
  startLoading();
}

/** Readies reporting for `config` (none: nothing is reported); the SDK loads when first needed. */
export function initErrorReporting(config: RuntimeConfig['sentry']): void {
  if (!config || configured) return;
  configured = config;
  stopWaitingForInteraction = onFirstInteraction(startLoading);
  window.addEventListener('error', onUncaughtError);
  window.addEventListener('unhandledrejection', onUnhandledRejection);
}

export function reportError(error: unknown, componentStack?: string) {
  if (sdk) send(sdk, { error, componentStack });
  else if (configured) queue(error, componentStack);
}
