/**
 * The pino logger factory: one JSON logger per service, level from LOG_LEVEL.
 * Lines go to stdout through one asynchronous destination per process
 * (buffered writes, flushed on exit), so logging never blocks the event loop
 * on a write. The lines stay JSON everywhere; `npm start` shows them
 * prettified in the terminal (infra/src/supervision/pretty-logs.ts). A line
 * written while a span is active carries its `trace_id` and `span_id`
 * (./tracing).
 */
import { pino } from 'pino';
import { traceLogFields } from './tracing';

export type Logger = pino.Logger;

let stdout: pino.DestinationStream | undefined;

/** The process's one asynchronous stdout destination (pino flushes it when the process exits). */
const asyncStdout = (): pino.DestinationStream =>
  (stdout ??= pino.destination({ dest: 1, sync: false }));

/**
 * Creates the service's root logger.
 * @param service the service name, put on every line as `service`
 * @param level pino level; default env LOG_LEVEL, else `info` (`silent` in tests is fine)
 */
export function createLogger(service: string, level = process.env.LOG_LEVEL ?? 'info'): Logger {
  return pino({ name: service, level, base: { service }, mixin: traceLogFields }, asyncStdout());
}
