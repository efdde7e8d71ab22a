/**
 * The express app every app starts from: JSON body size and depth limits, access
 * logs (./access-log), request metrics and `/metrics` (./metrics),
 * `/health/live` and `/health/ready`, the app's routers, and the central
 * error handler last, answering in the app's words. Also the listen/close
 * pair `start()` and `stop()` are built on.
 */
import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { AddressInfo } from 'node:net';
import express, {
  type ErrorRequestHandler,
  type Express,
  type RequestHandler,
  type Response,
} from 'express';
import { accessLog } from './access-log';
import {
  AppError,
  errorCodeFor,
  handleError,
  inWordsOf,
  kitFailure,
  neutralFailureMessages,
  toErrorBody,
  type FailureMessages,
} from './errors';
import type { Logger } from './logger';
import {
  createAppMetrics,
  httpMetrics,
  metricsHandler,
  METRICS_PATH,
  type AppMetrics,
} from './metrics';
import { refuseDotSegments } from './service-path';
import { httpServerSpans, type Tracing } from './tracing';

/** A readiness check: resolves when the dependency answers, rejects otherwise. */
export type ReadinessProbe = () => Promise<unknown>;

export interface HttpAppOptions {
  logger: Logger;
  /** Named readiness probes, e.g. `{ database: () => prisma.$queryRaw\`SELECT 1\` }`. */
  readiness?: Record<string, ReadinessProbe>;
  /** Largest accepted JSON body; default `100kb`. */
  jsonBodyLimit?: string;
  /** How long one probe may take, in ms; default 2000. */
  probeTimeoutMs?: number;
  /**
   * Adds what must run before the JSON body parser: CORS, `trust proxy`,
   * routes that stream their body through unread (the BFF's image uploads).
   */
  beforeBody?: (app: Express) => void;
  /** Adds the service's routers. */
  routes: (app: Express) => void;
  /** The error answer's body; default {@link toErrorBody} (the BFF adds the callable status). */
  errorBody?: ErrorBodyOf;
  /** The app's words for the kit's own failures; default {@link neutralFailureMessages}. */
  failureMessages?: FailureMessages;
  /** The app's metrics, served at `/metrics` with the process's; default a fresh registry. */
  metrics?: AppMetrics;
  /** The app's tracing: a server span per request when on (./tracing); default off. */
  tracing?: Tracing;
}

/** Builds an error answer's JSON body from the classified error (and the response's locals). */
export type ErrorBodyOf = (error: AppError, res: Response) => unknown;

/**
 * Builds the service's express app.
 * @returns the app, ready for {@link listen}
 */
export function createHttpApp(options: HttpAppOptions): Express {
  const { logger, readiness = {}, jsonBodyLimit = '100kb', probeTimeoutMs = 2000 } = options;
  const app = express();
  app.disable('x-powered-by');
  // JSON answers of an API change with every write: no body hash per answer.
  app.set('etag', false);
  if (options.tracing?.enabled) app.use(httpServerSpans(options.tracing));
  const access = accessLog(logger);
  if (access) app.use(access);
  const metrics = options.metrics ?? createAppMetrics();
  app.use(httpMetrics(metrics));
  app.use(dropBodyOfReads(BODY_OF_READ_LIMIT_BYTES));
  app.get(METRICS_PATH, metricsHandler(metrics));
  options.beforeBody?.(app);
  app.use(refuseDotSegments);
  app.use(jsonBody({ limit: jsonBodyLimit }));

  app.get('/health/live', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/health/ready', async (_req, res) => {
    const failures = await failedProbes(readiness, probeTimeoutMs);
    if (Object.keys(failures).length === 0) {
      res.json({ status: 'ok' });
      return;
    }
    logger.warn({ failures }, 'not ready');
    res.status(503).json({ status: 'unavailable', failures });
  });

  options.routes(app);
  app.use((_req, _res, next) => next(kitFailure('not-found', 'notFound')));
  app.use(errorMiddleware(logger, options.errorBody, options.failureMessages));
  return app;
}

/** The most a GET or HEAD request's body may hold before it is refused (1 MiB). */
const BODY_OF_READ_LIMIT_BYTES = 1024 * 1024;

/**
 * GET and HEAD take no body (RFC 9110 §9.3.1). One sent anyway is read and
 * dropped before any route answers: a socket that closes with unread bytes
 * makes the kernel reset the connection, and the client can lose an answer
 * already sent (seen with `Connection: close` and a large answer such as
 * `/metrics`). Requests without a declared body (no Content-Length) pass at once.
 * @param limitBytes beyond this many bytes the request is refused with 413
 *   `payload-too-large` (the kit's badRequest words) and its connection closed
 */
function dropBodyOfReads(limitBytes: number): RequestHandler {
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    // A chunked body passes as before: Node ends such a connection cleanly once answered.
    const declared = req.headers['content-length'];
    if (declared === undefined || declared === '0') return next();
    if (Number(declared) > limitBytes) {
      res.setHeader('connection', 'close');
      return next(kitFailure('payload-too-large', 'badRequest'));
    }
    let read = 0;
    const onData = (chunk: Buffer) => {
      read += chunk.length;
      if (read <= limitBytes) return;
      req.off('data', onData);
      req.off('end', onEnd);
      res.setHeader('connection', 'close');
      next(kitFailure('payload-too-large', 'badRequest'));
    };
    const onEnd = () => {
      req.off('data', onData);
      next();
    };
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('error', () => undefined);
  };
}

async function failedProbes(
  probes: Record<string, ReadinessProbe>,
  timeoutMs: number,
): Promise<Record<string, string>> {
  const failures: Record<string, string> = {};
  await Promise.all(
    Object.entries(probes).map(async ([name, probe]) => {
      try {
        await withTimeout(probe(), timeoutMs);
      } catch (error) {
        failures[name] = error instanceof Error ? error.message : String(error);
      }
    }),
  );
  return failures;
}

function withTimeout<T>(promise: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Express's side of the central error handler: answers with the docs/api.md error body.
 * @param errorBody builds the body; default {@link toErrorBody}
 * @param failureMessages the app's words for the kit's own failures ({@link inWordsOf})
 */
export function errorMiddleware(
  logger: Logger,
  errorBody: ErrorBodyOf = toErrorBody,
  failureMessages: FailureMessages = neutralFailureMessages,
): ErrorRequestHandler {
  return (error: unknown, req, res, _next) => {
    const appError = handleError(fromHttpClientError(error), logger, {
      method: req.method,
      path: req.path,
    });
    res.status(appError.httpStatus).json(errorBody(inWordsOf(appError, failureMessages), res));
  };
}

/** Clearer words than body-parser's for the refusals a caller meets most, by error `type`. */
const clientErrorMessages: Record<string, string> = {
  'entity.parse.failed': 'Request body is not valid JSON.',
  'entity.too.large': 'Request body is too large.',
  'encoding.unsupported': 'Request body has an unsupported Content-Encoding.',
  'charset.unsupported': 'Request body has an unsupported charset.',
  'request.size.invalid': 'Request body is shorter or longer than its Content-Length.',
  'request.aborted': 'Request body was cut off.',
};

/**
 * Turns the client errors of express's own layers into AppErrors: every
 * error from body-parser (http-errors, with `status`/`statusCode` and
 * `expose`: too large, bad JSON, corrupt or unknown Content-Encoding,
 * unknown charset…) and the router's 400 for a malformed percent-encoding
 * in a path (`/brands/%ff`). Any 4xx among them keeps its status and gets
 * the kit's code for it ({@link errorCodeFor}); everything else (5xx, not
 * an HTTP error) is returned unchanged for the central handler.
 * @param error what express passed to the error middleware
 * @returns an AppError for a client error, else `error` itself
 */
export function fromHttpClientError(error: unknown): unknown {
  if (error instanceof AppError || !error || typeof error !== 'object') return error;
  const { status, statusCode, expose, type, message } = error as {
    status?: unknown;
    statusCode?: unknown;
    expose?: unknown;
    type?: unknown;
    message?: unknown;
  };
  const httpStatus = typeof status === 'number' ? status : statusCode;
  if (typeof httpStatus !== 'number' || httpStatus < 400 || httpStatus >= 500 || expose === false)
    return error;
  const text =
    (typeof type === 'string' ? clientErrorMessages[type] : undefined) ??
    (error instanceof URIError ? 'The address is not correctly percent-encoded.' : undefined) ??
    (expose === true && typeof message === 'string' ? message : undefined);
  const options = { httpStatus, cause: error };
  if (text === undefined) return kitFailure(errorCodeFor(httpStatus), 'badRequest', options);
  return new AppError(errorCodeFor(httpStatus), text, options);
}

/** Deepest nesting of objects and arrays a JSON body may have (a top-level object is 1). */
export const JSON_MAX_DEPTH = 64;

export interface JsonBodyOptions {
  /** Largest accepted body after decompression; default `100kb`. */
  limit?: string;
  /** Deepest accepted nesting; default {@link JSON_MAX_DEPTH}. */
  maxDepth?: number;
}

/**
 * The JSON body parser of every app, the BFF included: express.json with a
 * size limit, then a nesting limit, so a body of thousands of nested arrays
 * is refused (400) before any handler copies it recursively
 * (`JSON.stringify`, zod) and overflows the stack.
 * @returns middleware for `app.use(...)`; errors go to {@link fromHttpClientError} and the central handler
 */
export function jsonBody(options: JsonBodyOptions = {}): RequestHandler[] {
  const { limit = '100kb', maxDepth = JSON_MAX_DEPTH } = options;
  const refuseDeepBody: RequestHandler = (req, _res, next) => {
    if (nestingExceeds(req.body, maxDepth)) {
      next(
        new AppError('invalid-argument', `Request body is nested deeper than ${maxDepth} levels.`),
      );
      return;
    }
    next();
  };
  return [express.json({ limit }), refuseDeepBody];
}

/**
 * True when `value` nests objects/arrays deeper than `maxDepth`. Walks with
 * its own stack (no recursion), so any depth is safe to check.
 */
export function nestingExceeds(value: unknown, maxDepth: number): boolean {
  const pending: Array<{ value: unknown; depth: number }> = [{ value, depth: 1 }];
  while (pending.length > 0) {
    const current = pending.pop()!;
    if (current.value === null || typeof current.value !== 'object') continue;
    if (current.depth > maxDepth) return true;
    for (const child of Object.values(current.value))
      if (child !== null && typeof child === 'object')
        pending.push({ value: child, depth: current.depth + 1 });
  }
  return false;
}

/** A listening HTTP server and how to close it. */
export interface RunningServer {
  /** The port actually bound (useful when 0 was asked). */
  port: number;
  server: Server;
  /**
   * Stops accepting connections and closes the server.
   * @param graceMs how long requests in flight may take to finish, in ms (idle kept-alive
   *   connections close at once); default 0: every connection is closed now
   */
  close(graceMs?: number): Promise<void>;
}

/** What node's HTTP parser refuses before express sees the request, by the parser's error code. */
const parserRefusals: Record<string, { status: number; message: string }> = {
  HPE_HEADER_OVERFLOW: { status: 431, message: 'Request headers are too large.' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, message: 'The request took too long to arrive.' },
};

/**
 * Answers the requests node's HTTP parser refuses before any express layer runs (headers over
 * node's 16 KB limit: 431; a request that took too long: 408; a malformed request: 400) in the
 * kit's error shape `{ error: { code, message } }` with a JSON content type, instead of node's
 * bare status line, then closes the connection (RFC 9110 §15.5, RFC 6585 §5).
 * @param server the app's HTTP server; a socket no longer writable is destroyed unanswered
 */
export function answerParserRefusals(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (!socket.writable || error.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const { status, message } = parserRefusals[error.code ?? ''] ?? {
      status: 400,
      message: 'The request is not valid HTTP.',
    };
    const body = JSON.stringify({ error: { code: errorCodeFor(status), message } });
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    );
  });
}

/**
 * Listens on one interface: loopback unless the `HOST` environment variable
 * names another (containers set `HOST=0.0.0.0`: compose, k8s, the Dockerfiles). What node's
 * parser refuses is answered in the kit's error shape ({@link answerParserRefusals}).
 * @param app the express app
 * @param port TCP port; 0 picks a free one
 * @param host default `HOST`, else `127.0.0.1`
 */
export function listen(
  app: Express,
  port: number,
  host = process.env.HOST || '127.0.0.1',
): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    const server = app.listen(port, host, (error?: Error) => {
      answerParserRefusals(server);
      if (error) {
        reject(error);
        return;
      }
      resolve({
        port: (server.address() as AddressInfo).port,
        server,
        close: (graceMs = 0) => closeGracefully(server, graceMs),
      });
    });
  });
}

/**
 * Closes `server`: no new connection, idle ones closed now and as soon as
 * their request is answered, every one still open after `graceMs` cut.
 * @returns once the server has closed
 */
function closeGracefully(server: Server, graceMs: number): Promise<void> {
  return new Promise<void>((done, fail) => {
    if (graceMs <= 0) {
      server.close((closeError) => (closeError ? fail(closeError) : done()));
      server.closeAllConnections();
      return;
    }
    // A kept-alive connection becomes idle when its answer is sent: close it then.
    const poll = setInterval(() => server.closeIdleConnections(), 50);
    const deadline = setTimeout(() => server.closeAllConnections(), graceMs);
    server.close((closeError) => {
      clearInterval(poll);
      clearTimeout(deadline);
      if (closeError) fail(closeError);
      else done();
    });
    server.closeIdleConnections();
  });
}
