import type { IncomingMessage } from 'node:http';
import type { Attributes, Context, TextMapGetter, TextMapPropagator, TextMapSetter } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { maskPersonalData, maskPersonalDataDeep, MASK } from '@portal/contract/personal-data';
import { trustedPeer, type TrustProxy } from './trusted-peer.ts';

/**
 * What leaves the instance in a trace, and what a trace may bring in (decision 0096). Apart from tracing.ts so
 * it loads, and is tested, without the SDK.
 */

/**
 * Who made a request, as the HTTP instrumentation records it: the client's address (from X-Forwarded-For or
 * the socket), its port and its browser. A trace backend keeps them longer and shows them to more people than
 * the audit log, which is where a client's address belongs.
 */
export const PERSONAL_ATTRIBUTES: ReadonlySet<string> = new Set([
  'client.address',
  'client.port',
  'network.peer.address',
  'network.peer.port',
  'user_agent.original',
  'user_agent.synthetic.type',
  // The names of semantic conventions before 1.26, which older instrumentations still write.
  'http.client_ip',
  'http.user_agent',
  'net.peer.ip',
  'net.peer.port',
  'net.sock.peer.addr',
  'net.sock.peer.port',
]);

/** Attributes that hold a URL or its query: every value of the query is masked, the names kept. */
const URL_ATTRIBUTES = new Set(['url.full', 'url.path', 'http.target', 'http.url']);

/**
 * Every value of a query string masked, names kept: the finance search's filters (a seller's name, an amount
 * range, `bankDetailsChanged`) describe what someone looked for, and a parcel code or address may stand in any.
 */
export function maskQueryValues(text: string): string {
  return text.replace(/([?&][^=&#\s]*=)[^&#\s]*/g, `$1${MASK}`);
}

function maskedAttribute(key: string, value: unknown): unknown {
  if (typeof value !== 'string') return value;
  // `url.query` stands without its `?`.
  if (key === 'url.query') return maskQueryValues(`?${value}`).slice(1);
  return URL_ATTRIBUTES.has(key) ? maskQueryValues(value) : value;
}

/** A span's attributes as they may leave: no client's identity, query values masked, personal data masked. */
export function privateAttributes(attributes: Attributes): Attributes {
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(attributes)) {
    if (!PERSONAL_ATTRIBUTES.has(key)) kept[key] = maskedAttribute(key, value);
  }
  return maskPersonalDataDeep(kept) as Attributes;
}

/** A span's name as it may leave: route patterns already, but a URL-named span keeps neither code nor query. */
export const privateSpanName = (name: string) => maskPersonalData(maskQueryValues(name));

/**
 * Whose W3C trace context a request may continue. A caller's `traceparent` decides the trace id the portal's
 * spans land under and, with its sampled flag, whether they are recorded at all (a flood of sampled requests
 * fills the backend; an unsampled one hides a request from it); `tracestate` and baggage are the caller's data
 * passed on to every call the portal makes (Firebase, the bucket). So by default no incoming context is taken:
 * each request starts its own trace. With TRUST_TRACE_CONTEXT, a request from a proxy TRUST_PROXY names may
 * continue the trace it brings. Baggage is never taken in, nor sent on: the portal uses none.
 */
export function incomingTraceContext(options: { trust: boolean; trustProxy: TrustProxy }) {
  const fromTrustedProxy = trustedPeer(options.trustProxy);
  // The headers object the HTTP instrumentation then extracts from: marked when its request may bring a trace.
  const trusted = new WeakSet<object>();
  const inner = new W3CTraceContextPropagator();
  const propagator: TextMapPropagator = {
    inject: (context: Context, carrier: unknown, setter: TextMapSetter) => inner.inject(context, carrier, setter),
    extract: (context: Context, carrier: unknown, getter: TextMapGetter) =>
      typeof carrier === 'object' && carrier !== null && trusted.has(carrier)
        ? inner.extract(context, carrier, getter)
        : context,
    fields: () => inner.fields(),
  };
  return {
    propagator,
    /** Called with every incoming request before its context is extracted (the instrumentation's first hook). */
    admit(request: IncomingMessage): void {
      if (options.trust && fromTrustedProxy(request.socket.remoteAddress)) trusted.add(request.headers);
    },
  };
}

/** TRUST_TRACE_CONTEXT and TRUST_PROXY as the environment gives them, read before config.ts has loaded. */
export function traceTrustFromEnv(env: NodeJS.ProcessEnv): { trust: boolean; trustProxy: TrustProxy } {
  const trust = ['true', '1'].includes(env.TRUST_TRACE_CONTEXT?.trim() ?? '');
  const proxy = env.TRUST_PROXY?.trim() ?? '';
  let trustProxy: TrustProxy = false;
  if (/^\d+$/.test(proxy)) trustProxy = Number(proxy);
  else if (proxy !== '' && proxy !== 'false') trustProxy = proxy.split(',').map((entry) => entry.trim());
  return { trust, trustProxy };
}
