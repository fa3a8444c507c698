import { SpanStatusCode, trace, type Attributes } from '@opentelemetry/api';

/** The portal's own spans, beside those the instrumentations make. */
const tracer = trace.getTracer('parcel-invoice-portal');

/**
 * Runs `work` in a span of its own, a child of the active one, ended when it settles; a throw marks the span an
 * error (its type only: an error's message may name a person). Through @opentelemetry/api, which does nothing
 * when the SDK was not started (tracing off), so the domain calls this unconditionally. No personal data in
 * `name` or `attributes`.
 */
export function inSpan<T>(name: string, attributes: Attributes, work: () => Promise<T>): Promise<T> {
  return tracer.startActiveSpan(name, { attributes }, async (span) => {
    try {
      return await work();
    } catch (error) {
      span.setStatus({ code: SpanStatusCode.ERROR });
      span.setAttribute('error.type', error instanceof Error ? error.name : 'unknown');
      throw error;
    } finally {
      span.end();
    }
  });
}
