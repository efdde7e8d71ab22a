/** The pino logger factory: one JSON logger per service, level from LOG_LEVEL. */
import { pino } from 'pino';

export type Logger = pino.Logger;

/**
 * Creates the service's root logger.
 * @param service the service name, put on every line as `service`
 * @param level pino level; default env LOG_LEVEL, else `info` (`silent` in tests is fine)
 */
export function createLogger(service: string, level = process.env.LOG_LEVEL ?? 'info'): Logger {
  return pino({ name: service, level, base: { service } });
}
