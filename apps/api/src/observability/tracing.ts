import { register } from 'node:module';
import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { getNumberFromEnv, getRPCMetadata, getStringFromEnv, type ExportResult } from '@opentelemetry/core';
import { OTLPTraceExporter as OTLPJsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as OTLPProtobufTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { AwsInstrumentation } from '@opentelemetry/instrumentation-aws-sdk';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  TracerProvider,
  type ReadableSpan,
  type Sampler,
  type SpanExporter,
} from '@opentelemetry/sdk-trace';
import FastifyOtelInstrumentation from '@fastify/otel';
import { createAddHookMessageChannel } from 'import-in-the-middle';
import { currentRelease } from '../release.ts';
import { FLUSH_TRACING } from './tracing-switch.ts';
import { maskPersonalData } from '@portal/contract/personal-data';
import { incomingTraceContext, privateAttributes, privateSpanName, traceTrustFromEnv } from './trace-privacy.ts';

/**
 * The OpenTelemetry SDK, started by the server's entry (server.ts) before it imports anything it instruments,
 * and only when tracing-switch.ts says the OTEL_* variables ask for it (decision 0079). Traces go over
 * OTLP/HTTP to OTEL_EXPORTER_OTLP_ENDPOINT, protobuf (the specification's default) or JSON as
 * OTEL_EXPORTER_OTLP_(TRACES_)PROTOCOL says (grpc is refused by config.ts); the exporter reads its own variables
 * (endpoint, headers, timeout), the resource OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES, and the sampler
 * below OTEL_TRACES_SAMPLER(_ARG), as the specification says. Instrumented: the HTTP server and client, Fastify's
 * routes and hooks, pg (PostgreSQL; PGlite has no driver to hook) and the AWS SDK (the invoice bucket); the
 * domain adds its own spans (spans.ts).
 */

/** What the specification's OTEL_TRACES_SAMPLER names; the default is parentbased_always_on. */
function samplerFromEnv(): Sampler {
  const ratio = () => {
    const value = getNumberFromEnv('OTEL_TRACES_SAMPLER_ARG');
    return value === undefined || value < 0 || value > 1 ? 1 : value;
  };
  switch (getStringFromEnv('OTEL_TRACES_SAMPLER') ?? 'parentbased_always_on') {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return new TraceIdRatioBasedSampler(ratio());
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio()) });
    default:
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
  }
}

/**
 * Masks every span's name, attributes and events on the way out, as the logs are masked: an instrumentation
 * records URLs (`url.path`, `url.query`, `url.full`), the invoice routes carry parcel codes in them and the
 * finance search its filters; and it records who called (address, browser), which stays out of traces.
 */
export function maskingExporter(inner: SpanExporter): SpanExporter {
  const mask = (span: ReadableSpan): ReadableSpan =>
    Object.create(span, {
      name: { value: privateSpanName(span.name) },
      attributes: { value: privateAttributes(span.attributes) },
      events: {
        value: span.events.map((event) => ({
          ...event,
          name: maskPersonalData(event.name),
          attributes: event.attributes && privateAttributes(event.attributes),
        })),
      },
    }) as ReadableSpan;
  return {
    export: (spans: ReadableSpan[], done: (result: ExportResult) => void) => inner.export(spans.map(mask), done),
    shutdown: () => inner.shutdown(),
    forceFlush: () => inner.forceFlush?.() ?? Promise.resolve(),
  };
}

/** Probes answer every few seconds: spans of them would bury the requests people make. */
const PROBES = new Set(['/api/healthz', '/api/readyz']);

/** The id the portal's log lines carry (`reqId`, nginx's X-Request-Id behind a trusted proxy) on the server span. */
export const REQUEST_ID_ATTRIBUTE = 'portal.request_id';

export async function startTracing(): Promise<void> {
  // The instrumentations patch modules as they load; the API is ES modules, which only a loader hook sees.
  // The hook wraps only the modules an instrumentation asked for: wrapping all of them doubled the start.
  const { registerOptions, waitForAllMessagesAcknowledged } = createAddHookMessageChannel();
  register('import-in-the-middle/hook.mjs', import.meta.url, registerOptions);

  const release = currentRelease();
  const resource = resourceFromAttributes({
    'service.name': 'parcel-invoice-portal',
    'service.version': release.release,
  }).merge(detectResources({ detectors: [envDetector] }));

  const provider = new TracerProvider({
    resource,
    sampler: samplerFromEnv(),
    spanProcessors: [
      new BatchSpanProcessor({
        exporter: maskingExporter(
          (getStringFromEnv('OTEL_EXPORTER_OTLP_TRACES_PROTOCOL') ??
            getStringFromEnv('OTEL_EXPORTER_OTLP_PROTOCOL')) === 'http/json'
            ? new OTLPJsonTraceExporter()
            : new OTLPProtobufTraceExporter(),
        ),
        // The specification's OTEL_BSP_* variables: sdk-trace 3 leaves reading them to the SDK's set-up.
        scheduledDelayMillis: getNumberFromEnv('OTEL_BSP_SCHEDULE_DELAY'),
        exportTimeoutMillis: getNumberFromEnv('OTEL_BSP_EXPORT_TIMEOUT'),
        maxQueueSize: getNumberFromEnv('OTEL_BSP_MAX_QUEUE_SIZE'),
        maxExportBatchSize: getNumberFromEnv('OTEL_BSP_MAX_EXPORT_BATCH_SIZE'),
      }),
    ],
  });
  const contextManager = new AsyncLocalStorageContextManager();
  context.setGlobalContextManager(contextManager.enable());
  const incoming = incomingTraceContext(traceTrustFromEnv(process.env));
  propagation.setGlobalPropagator(incoming.propagator);
  trace.setGlobalTracerProvider(provider);

  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new HttpInstrumentation({
        // The first hook a request meets, before its trace context is read: whether it may bring one.
        ignoreIncomingRequestHook: (request) => {
          if (PROBES.has((request.url ?? '').split('?')[0] ?? '')) return true;
          incoming.admit(request);
          return false;
        },
      }),
      new FastifyOtelInstrumentation({
        registerOnInitialization: true,
        ignorePaths: (options: { url: string }) => PROBES.has(options.url),
        // The request's id on the HTTP server span, where a trace is looked up from a log line.
        requestHook: (span: { setAttribute(key: string, value: string): unknown }, request: { id: string }) => {
          span.setAttribute(REQUEST_ID_ATTRIBUTE, request.id);
          getRPCMetadata(context.active())?.span?.setAttribute(REQUEST_ID_ATTRIBUTE, request.id);
        },
      }),
      new PgInstrumentation({ requireParentSpan: true }),
      new AwsInstrumentation({ suppressInternalInstrumentation: true }),
    ],
  });

  await waitForAllMessagesAcknowledged();

  // The server calls this before it exits, so the last spans are not lost with the process.
  (globalThis as Record<symbol, unknown>)[FLUSH_TRACING] = async () => {
    await provider.forceFlush().catch(() => {});
    await provider.shutdown().catch(() => {});
  };
}
