import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { describe, it } from 'node:test';
import {
  defaultTextMapGetter,
  defaultTextMapSetter,
  propagation,
  ROOT_CONTEXT,
  trace,
  TraceFlags,
} from '@opentelemetry/api';
import {
  incomingTraceContext,
  maskQueryValues,
  PERSONAL_ATTRIBUTES,
  privateAttributes,
  privateSpanName,
  traceTrustFromEnv,
} from './trace-privacy.ts';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT = `00-${TRACE_ID}-00f067aa0ba902b7-01`;

/** A request as the HTTP instrumentation hands it over: the connecting address and the headers. */
const requestFrom = (remoteAddress: string, headers: Record<string, string>) =>
  ({ socket: { remoteAddress }, headers }) as unknown as IncomingMessage;

describe('what a trace carries out', () => {
  it("drops who called (address, port, browser) and masks every query value, the finance search's filters too", () => {
    const attributes = privateAttributes({
      'client.address': '198.51.100.7',
      'network.peer.address': '10.0.4.21',
      'network.peer.port': 51234,
      'user_agent.original': 'Mozilla/5.0 (Windows NT 10.0) Firefox/140.0',
      'http.user_agent': 'Mozilla/5.0',
      'http.route': '/api/invoices',
      'http.request.method': 'GET',
      'url.query': 'seller=Acme%20Freight&amountFrom=1000&bankDetailsChanged=true',
      'url.path': '/api/invoices?buyer=Jane%20Doe&format=pdf',
      'url.full': 'http://portal.example.com/api/invoices?seller=Acme&sort=-received',
      'http.response.status_code': 200,
    });
    assert.deepEqual(attributes, {
      'http.route': '/api/invoices',
      'http.request.method': 'GET',
      'url.query': 'seller=[masked]&amountFrom=[masked]&bankDetailsChanged=[masked]',
      'url.path': '/api/invoices?buyer=[masked]&format=[masked]',
      'url.full': 'http://portal.example.com/api/invoices?seller=[masked]&sort=[masked]',
      'http.response.status_code': 200,
    });
    for (const name of PERSONAL_ATTRIBUTES) assert.ok(!(name in attributes));
    assert.equal(privateSpanName('GET /api/invoices?seller=Acme'), 'GET /api/invoices?seller=[masked]');
    assert.equal(maskQueryValues('/api/invoices/'), '/api/invoices/');
  });
});

describe('what a trace may bring in', () => {
  const extract = (policy: ReturnType<typeof incomingTraceContext>, request: IncomingMessage) => {
    policy.admit(request);
    return policy.propagator.extract(ROOT_CONTEXT, request.headers, defaultTextMapGetter);
  };

  it("by default continues nobody's trace, and never takes baggage", () => {
    const policy = incomingTraceContext({ trust: false, trustProxy: ['127.0.0.1'] });
    const context = extract(policy, requestFrom('127.0.0.1', { traceparent: PARENT, baggage: 'tenant=acme' }));
    assert.equal(trace.getSpanContext(context), undefined);
    assert.equal(propagation.getBaggage(context), undefined);
  });

  it('with TRUST_TRACE_CONTEXT continues the trace a listed proxy brings, and only that', () => {
    const policy = incomingTraceContext({ trust: true, trustProxy: ['10.0.4.21'] });
    const proxied = extract(policy, requestFrom('::ffff:10.0.4.21', { traceparent: PARENT, baggage: 'tenant=acme' }));
    assert.equal(trace.getSpanContext(proxied)?.traceId, TRACE_ID);
    assert.equal(propagation.getBaggage(proxied), undefined, 'baggage is never taken');
    const direct = extract(policy, requestFrom('10.0.9.15', { traceparent: PARENT }));
    assert.equal(trace.getSpanContext(direct), undefined, 'another peer starts its own trace');
  });

  it('sends its own trace context on, and no baggage', () => {
    const policy = incomingTraceContext({ trust: false, trustProxy: false });
    const span = trace.wrapSpanContext({
      traceId: TRACE_ID,
      spanId: '00f067aa0ba902b7',
      traceFlags: TraceFlags.SAMPLED,
    });
    const context = propagation.setBaggage(
      trace.setSpan(ROOT_CONTEXT, span),
      propagation.createBaggage({ tenant: { value: 'acme' } }),
    );
    const carrier: Record<string, string> = {};
    policy.propagator.inject(context, carrier, defaultTextMapSetter);
    assert.deepEqual(Object.keys(carrier), ['traceparent']);
  });

  it('reads its settings from the environment before the configuration is loaded', () => {
    assert.deepEqual(traceTrustFromEnv({}), { trust: false, trustProxy: false });
    assert.deepEqual(traceTrustFromEnv({ TRUST_TRACE_CONTEXT: 'true', TRUST_PROXY: '10.0.4.21, 10.0.4.22' }), {
      trust: true,
      trustProxy: ['10.0.4.21', '10.0.4.22'],
    });
    assert.deepEqual(traceTrustFromEnv({ TRUST_TRACE_CONTEXT: '1', TRUST_PROXY: '1' }), { trust: true, trustProxy: 1 });
    // A value config.ts refuses does not throw here first: the start-up error says what is wrong.
    const policy = incomingTraceContext({ trust: true, trustProxy: ['true'] });
    assert.equal(trace.getSpanContext(extract(policy, requestFrom('127.0.0.1', { traceparent: PARENT }))), undefined);
  });
});
