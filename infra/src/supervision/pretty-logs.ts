/**
 * Readable terminal lines for the apps `npm start` runs. The apps always log
 * pino JSON (production's format, written through one cheap asynchronous
 * destination); only the supervisor's terminal view is prettified, with
 * pino-pretty, so no app carries a pretty-printing transport.
 */
import { prettyFactory } from 'pino-pretty';

/** A pino line as parsed: numeric `level`, epoch-ms `time`, `msg`, and any other field. */
type PinoLine = Record<string, unknown> & { level: number; time: number };

const isPinoLine = (value: unknown): value is PinoLine =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as PinoLine).level === 'number' &&
  typeof (value as PinoLine).time === 'number';

/**
 * An access line (kit access-log: `req`, `res`, `responseTime`, `route`) as one
 * phrase, `GET /api/me 200 3 ms`, instead of its nested objects.
 */
function shortenAccessLine(line: PinoLine): PinoLine {
  if (line.component !== 'access') return line;
  const request = (line.req ?? {}) as { method?: string; path?: string };
  const response = (line.res ?? {}) as { statusCode?: number };
  const shown: PinoLine = {
    ...line,
    msg: `${request.method} ${request.path} ${response.statusCode} ${line.responseTime} ms`,
  };
  for (const key of ['req', 'res', 'responseTime', 'route', 'component']) delete shown[key];
  return shown;
}

/**
 * Makes the formatter of one output line.
 * @param colorize ANSI colours (default: when this process's stdout is a terminal)
 * @returns a function taking one line without its newline and answering the
 *   text to show, without a trailing newline: a pino line as
 *   `[12:00:01.234] INFO: message {"extra":"fields"}` (an error's stack on the
 *   lines after it), any other line unchanged
 */
export function prettyLogLine(colorize = process.stdout.isTTY === true): (line: string) => string {
  const pretty = prettyFactory({
    colorize,
    singleLine: true,
    translateTime: 'SYS:HH:MM:ss.l',
    // The line's prefix already names the app; pid and host are the same on every line.
    ignore: 'pid,hostname,name,service',
  });
  return (line) => {
    if (!line.startsWith('{')) return line;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      return line;
    }
    return isPinoLine(parsed) ? pretty(shortenAccessLine(parsed)).trimEnd() : line;
  };
}
