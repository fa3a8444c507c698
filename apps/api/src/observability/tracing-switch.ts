/**
 * Whether this process should trace: the standard OpenTelemetry variables name an OTLP endpoint, and neither
 * `OTEL_SDK_DISABLED=true` nor `OTEL_TRACES_EXPORTER=none` turns it off. Imports nothing, so the server's
 * entry can ask before it loads any of the SDK (off by default and free when off: decision 0079).
 */
export function tracingRequested(env: NodeJS.ProcessEnv): boolean {
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (!endpoint) return false;
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  return (env.OTEL_TRACES_EXPORTER?.trim().toLowerCase() ?? 'otlp') !== 'none';
}

/**
 * Where the started SDK leaves its flush, for the server to call before it exits. A global, not a module
 * variable: the compiled server's entry and its main module are separate bundles, each with its own copy of
 * this module.
 */
export const FLUSH_TRACING = Symbol.for('parcel-invoice-portal.flush-tracing');

/** Sends the spans still queued (nothing when tracing is off). */
export async function flushTracing(): Promise<void> {
  const flush = (globalThis as Record<symbol, unknown>)[FLUSH_TRACING];
  if (typeof flush === 'function') await (flush as () => Promise<void>)();
}
