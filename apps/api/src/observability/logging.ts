import os from 'node:os';
import { trace } from '@opentelemetry/api';
import type { FastifyServerOptions } from 'fastify';
import fp from 'fastify-plugin';
import pino, { type DestinationStream, type Logger } from 'pino';
import type { Config } from '../config.ts';
import { currentRelease } from '../release.ts';
import { maskPersonalData, maskPersonalDataDeep } from '@portal/contract/personal-data';

/**
 * The server's logger: every line carries the release (`release`, as in GET /api/version and error reports)
 * and, within a request, the request id (`reqId`); no line carries an e-mail address,
 * a token or a parcel code. URLs are masked where the request is serialized; every other field and the
 * message itself on the way out, so a careless `log.info({ email })` is masked too. While a trace span is active
 * (tracing switched on: decision 0079), the line carries its `trace_id` and `span_id`, the names OpenTelemetry's
 * log data model gives them, so a log line leads to its trace and back.
 */
export function loggerOptions(
  config: Pick<Config, 'logLevel'>,
): Exclude<FastifyServerOptions['logger'], boolean | undefined> {
  return {
    level: config.logLevel,
    // pino's own base fields, plus which build wrote the line: during a rolling upgrade two releases log.
    base: { pid: process.pid, hostname: os.hostname(), release: currentRelease().release },
    serializers: {
      req: (request: { method: string; url: string; ip?: string; socket?: { remotePort?: number } }) => ({
        method: request.method,
        url: maskPersonalData(request.url),
        remoteAddress: request.ip,
        remotePort: request.socket?.remotePort,
      }),
      // Headers (and with them Authorization and cookies) are never logged; an error's text may hold anything.
      err: (error: Error & { code?: unknown; statusCode?: unknown }) => ({
        type: error.constructor?.name ?? 'Error',
        message: maskPersonalData(String(error.message)),
        stack: maskPersonalData(String(error.stack)),
        ...(error.code === undefined ? {} : { code: error.code }),
        ...(error.statusCode === undefined ? {} : { statusCode: error.statusCode }),
      }),
    },
    // Level names and ISO 8601 times: what log pipelines (Loki, Elasticsearch, Cloud Logging) read without a
    // mapping of pino's numbers and epoch milliseconds.
    timestamp: pino.stdTimeFunctions.isoTime,
    mixin: traceContextFields,
    formatters: { level: (label) => ({ level: label }), log: (fields) => maskPersonalDataDeep(fields) },
    hooks: {
      logMethod(args, method) {
        method.apply(
          this,
          args.map((arg) => (typeof arg === 'string' ? maskPersonalData(arg) : arg)) as Parameters<typeof method>,
        );
      },
    },
  };
}

/**
 * The active span's ids; none when tracing is off (without the SDK no context holds a span). An unsampled
 * request keeps the ids its caller's traceparent gave it, which still find the caller's side of the trace.
 */
function traceContextFields(): object {
  const spanContext = trace.getActiveSpan()?.spanContext();
  return spanContext && trace.isSpanContextValid(spanContext)
    ? { trace_id: spanContext.traceId, span_id: spanContext.spanId }
    : {}; // a new object: pino merges the line's fields into it
}

/**
 * The process's one logger, shared by the domain (background work) and the HTTP app (requests), so both
 * write the same masked JSON lines. Tests pass a destination to read what was logged.
 */
export function createLogger(config: Pick<Config, 'logLevel'>, destination?: DestinationStream): Logger {
  const options = loggerOptions(config) as pino.LoggerOptions;
  return destination ? pino(options, destination) : pino(options);
}

const INFO = pino.levels.values.info!;

/**
 * One line per request, once it is answered (method, masked URL, status, time, `reqId`), like an access
 * log; Fastify's own request logging (turned off in `createApp`) writes two, and at `info` under load the
 * second line cost a tenth of a download's time.
 */
export const requestLogPlugin = fp(
  async (app) => {
    // A callback hook, and the line's object built only when it is written: at `warn` nothing is allocated.
    // Written through the app's logger with the request's id as a field, the same line a child of the
    // request would write, without making that child (request-logger.ts).
    app.addHook('onResponse', (request, reply, done) => {
      if ((pino.levels.values[request.log.level] ?? 0) <= INFO)
        app.log.info(
          { reqId: request.id, req: request, res: reply, responseTime: reply.elapsedTime },
          'request completed',
        );
      done();
    });
  },
  { name: 'request-log' },
);
