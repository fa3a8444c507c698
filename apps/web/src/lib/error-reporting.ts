import type { RuntimeConfig } from '@portal/contract';
import { scrubBreadcrumb, scrubEvent } from './scrub-report';
import type * as SentrySdk from './sentry-sdk';

/**
 * Error reporting through the Sentry SDK, loaded only when a DSN is configured so the login page does
 * not pay for it otherwise. Errors raised before the SDK arrives are queued, not lost.
 */
type Sdk = typeof SentrySdk;

let sdk: Sdk | undefined;
let loading: Promise<void> | undefined;
const pending: unknown[] = [];

export function initErrorReporting(config: RuntimeConfig['sentry']): Promise<void> {
  if (!config || loading) return loading ?? Promise.resolve();
  loading = import('./sentry-sdk').then((sentry) => {
    sentry.init({
      dsn: config.dsn,
      environment: config.environment,
      // The build's name: its uploaded source maps are found by it.
      release: config.release,
      attachStacktrace: true,
      // The default integrations report global errors and unhandled rejections and keep breadcrumbs; neither
      // may carry a parcel code or an e-mail address (the invoice link's query, the /users/<email> calls).
      beforeBreadcrumb: scrubBreadcrumb,
      beforeSend: scrubEvent,
    });
    sdk = sentry;
    for (const error of pending.splice(0)) sentry.captureException(error);
  });
  return loading;
}

export function reportError(error: unknown, componentStack?: string) {
  if (sdk) sdk.captureException(error, componentStack ? { contexts: { react: { componentStack } } } : undefined);
  else if (loading) pending.push(error);
}
