import { tracingRequested } from './observability/tracing-switch.ts';

/**
 * The server's entry. OpenTelemetry's instrumentations hook modules as they load, so when the OTEL_* variables
 * ask for traces the SDK starts first and the server (main.ts, every module it imports) is loaded only after;
 * without them no part of the SDK is loaded at all (decision 0079). The build keeps both imports as separate
 * files for that reason (packages/dev-stack/src/builds.ts).
 */
if (tracingRequested(process.env)) {
  const { startTracing } = await import('./observability/tracing.ts');
  await startTracing();
}
await import('./main.ts');
