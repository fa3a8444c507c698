import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions, Level, LevelWithSilentOrString, Logger } from 'pino';

/**
 * A request's logger that becomes a pino child (with the request's `reqId`) only when the request writes a
 * line: most requests write none of their own (their access line goes through the parent, request-log), and
 * a child per request was an object, its serialized bindings and their garbage on every download.
 */
export class RequestLogger {
  readonly #parent: Logger;
  readonly #bindings: Bindings;
  #child: Logger | undefined;

  constructor(parent: Logger, bindings: Bindings) {
    this.#parent = parent;
    this.#bindings = bindings;
  }

  #logger(): Logger {
    return (this.#child ??= this.#parent.child(this.#bindings));
  }

  #write(level: Level, args: unknown[]): void {
    const logger = this.#child ?? this.#parent;
    if (!logger.isLevelEnabled(level)) return;
    (this.#logger()[level] as (...line: unknown[]) => void)(...args);
  }

  get level(): LevelWithSilentOrString {
    return (this.#child ?? this.#parent).level;
  }

  set level(level: LevelWithSilentOrString) {
    this.#logger().level = level;
  }

  isLevelEnabled(level: LevelWithSilentOrString): boolean {
    return (this.#child ?? this.#parent).isLevelEnabled(level);
  }

  bindings(): Bindings {
    return this.#logger().bindings();
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): Logger {
    return this.#logger().child(bindings, options);
  }

  fatal(...args: unknown[]): void {
    this.#write('fatal', args);
  }
  error(...args: unknown[]): void {
    this.#write('error', args);
  }
  warn(...args: unknown[]): void {
    this.#write('warn', args);
  }
  info(...args: unknown[]): void {
    this.#write('info', args);
  }
  debug(...args: unknown[]): void {
    this.#write('debug', args);
  }
  trace(...args: unknown[]): void {
    this.#write('trace', args);
  }
  silent(): void {}
}

/**
 * Fastify's factory of request loggers: lazy ones, unless a route asks for a level or serializers of its own
 * (none does today), which get a real child at once.
 */
export function requestLoggerFactory(
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  if (options.level !== undefined || options.serializers !== undefined) return logger.child(bindings, options);
  // The app's logger is pino (createLogger); Fastify only asks a request's logger for these methods.
  return new RequestLogger(logger as unknown as Logger, bindings) as unknown as FastifyBaseLogger;
}
