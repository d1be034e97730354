import type { FastifyBaseLogger } from 'fastify';
import pino, { type Bindings, type ChildLoggerOptions, type Logger } from 'pino';
import type { Config } from './config.js';
import { REDACT_PATHS, levelEnabled } from './plugins/request-log.js';

export function createLogger(config: Pick<Config, 'logLevel'>): Logger {
  return pino({
    level: config.logLevel,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    base: { service: 'media-publishing-service' },
    timestamp: pino.stdTimeFunctions.isoTime,
  });
}

type LevelName = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/**
 * A request's logger (Fastify's `childLoggerFactory`) that becomes the pino child with the request
 * id only when something logs through it. Building a child serialises its bindings through the
 * redaction's wildcard stringifier (`*.password`...): work on every request, and at the level a
 * deployment runs (`warn`) almost no request logs. What it writes, once it does, is the child's.
 */
export function requestLogger(parent: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  if (parent.level === 'silent') return parent;
  // A level or serializers of the route's own: the child now, as Fastify would make it.
  if (options.level !== undefined || options.serializers !== undefined) return parent.child(bindings, options);
  return new DeferredChild(parent, bindings);
}

class DeferredChild implements FastifyBaseLogger {
  #made: FastifyBaseLogger | undefined;
  readonly #parent: FastifyBaseLogger;
  readonly #bindings: Bindings;

  constructor(parent: FastifyBaseLogger, bindings: Bindings) {
    this.#parent = parent;
    this.#bindings = bindings;
  }

  #child(): FastifyBaseLogger {
    return (this.#made ??= this.#parent.child(this.#bindings));
  }

  get level(): string {
    return (this.#made ?? this.#parent).level;
  }

  set level(level: string) {
    this.#child().level = level;
  }

  /** pino's, which request-log asks before building its line. */
  isLevelEnabled(level: string): boolean {
    return levelEnabled(this.#made ?? this.#parent, level);
  }

  #log(level: LevelName, args: unknown[]): void {
    // A level that writes nothing (pino's no-op) needs no child.
    if (!this.isLevelEnabled(level)) return;
    (this.#child()[level] as (...a: unknown[]) => void)(...args);
  }

  fatal(...args: unknown[]): void { this.#log('fatal', args); }
  error(...args: unknown[]): void { this.#log('error', args); }
  warn(...args: unknown[]): void { this.#log('warn', args); }
  info(...args: unknown[]): void { this.#log('info', args); }
  debug(...args: unknown[]): void { this.#log('debug', args); }
  trace(...args: unknown[]): void { this.#log('trace', args); }
  silent(): void {}

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#child().child(bindings, options);
  }
}
