import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import { maskPersonalDataDeep } from '@portal/contract/personal-data';

export interface ErrorReporter {
  /** Reports an unexpected error with the request's id and route (never its URL, headers or body). */
  capture(error: unknown, request: FastifyRequest): void;
  /** Sends what is queued; the process calls it before it exits. */
  flush(timeoutMs: number): Promise<void>;
}

const NOT_REPORTING: ErrorReporter = { capture: () => {}, flush: async () => {} };

/**
 * Server-side error reporting with @sentry/node when SENTRY_DSN is set: unexpected errors (the 500s) and
 * unhandled rejections, under the same environment and release as the browser's. Every string of every event and
 * breadcrumb goes through the same masking as the logs, and the SDK never adds request data or PII itself.
 * The SDK is loaded only when a DSN is configured.
 */
export async function openErrorReporter(sentry: Config['sentry']): Promise<ErrorReporter> {
  if (!sentry) return NOT_REPORTING;
  const Sentry = await import('@sentry/node');
  Sentry.init({
    dsn: sentry.dsn,
    environment: sentry.environment,
    release: sentry.release,
    // No user, cookies, headers, bodies or query strings from the SDK's own instrumentation.
    dataCollection: { userInfo: false, cookies: false, httpHeaders: false, httpBodies: [], urlQueryParams: false },
    // Errors only; no performance tracing.
    tracesSampleRate: 0,
    // Traces belong to the portal's own OpenTelemetry SDK when OTEL_* switch it on (decision 0079): Sentry must
    // not register a tracer provider or propagator of its own beside it (false is v11's default, pinned here).
    enableOpenTelemetrySetup: false,
    // The errors plugin reports what is unexpected, once, with the request id; the SDK's own Fastify
    // integration would report every thrown error again, refusals included.
    integrations: (defaults) => defaults.filter((integration) => integration.name !== 'Fastify'),
    beforeSend: (event) => maskPersonalDataDeep(event),
    beforeBreadcrumb: (breadcrumb) => maskPersonalDataDeep(breadcrumb),
  });
  return {
    capture(error, request) {
      Sentry.withScope((scope) => {
        scope.setTag('request_id', request.id);
        scope.setContext('request', { method: request.method, route: request.routeOptions.url ?? 'unmatched' });
        // The isolation scope may hold the raw request (URL, headers) from the SDK's HTTP integration.
        scope.setSDKProcessingMetadata({ normalizedRequest: undefined });
        Sentry.captureException(error);
      });
    },
    async flush(timeoutMs) {
      await Sentry.flush(timeoutMs);
    },
  };
}
