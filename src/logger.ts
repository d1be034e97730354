import pino, { type Logger } from 'pino';
import type { Config } from './config.js';
import { REDACT_PATHS } from './plugins/request-log.js';

export function createLogger(config: Pick<Config, 'logLevel'>): Logger {
  return pino({
    level: config.logLevel,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    base: { service: 'media-publishing-service' },
    timestamp: pino.stdTimeFunctions.isoTime,
  });
}
