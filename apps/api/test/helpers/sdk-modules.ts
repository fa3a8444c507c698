/** What would mean the tracing SDK loaded: any OpenTelemetry package but the API, or the module hooks it uses. */
export const SDK_MODULE = /@opentelemetry\/(?!api\/)|import-in-the-middle|require-in-the-middle|@fastify\/otel/;

/**
 * A `--import` for a server process: every module it resolves (imported or required) that SDK_MODULE matches
 * is printed on stderr as `loaded: <url>`, for `sdkModulesIn` to read.
 */
export const RECORD_SDK_MODULES = `data:text/javascript,${encodeURIComponent(`
import { registerHooks } from 'node:module';
const pattern = ${SDK_MODULE.toString()};
registerHooks({ resolve(specifier, context, next) {
  const resolved = next(specifier, context);
  if (pattern.test(resolved.url)) process.stderr.write('loaded: ' + resolved.url + '\\n');
  return resolved;
} });
`)}`;

/** The SDK modules a process recorded with RECORD_SDK_MODULES, from what it printed. */
export const sdkModulesIn = (output: string): string[] =>
  (output.match(/^loaded: .*$/gm) ?? []).map((line) => line.slice('loaded: '.length));

/** The variables that would switch tracing on, emptied: a test's server must not trace by the machine's. */
export const TRACING_OFF = { OTEL_EXPORTER_OTLP_ENDPOINT: '', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: '' };
