/** The BFF's pino logger; one root, children per component. */
import { pino, type Logger } from 'pino';

export type { Logger };

/**
 * Creates the root logger.
 * @param level pino level name (`silent` in quiet tests)
 */
export function createLogger(level: string): Logger {
  return pino({ name: 'bff', level });
}
