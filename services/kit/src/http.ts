/**
 * The express app every service starts from: JSON body limit, request
 * logging, `/health/live` and `/health/ready`, the service's routers, and
 * the central error handler last. Also the listen/close pair `start()` and
 * `stop()` are built on.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type ErrorRequestHandler, type Express, type RequestHandler } from 'express';
import { AppError, handleError, toErrorBody } from './errors';
import type { Logger } from './logger';

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
  /** Adds the service's routers. */
  routes: (app: Express) => void;
}

/**
 * Builds the service's express app.
 * @returns the app, ready for {@link listen}
 */
export function createHttpApp(options: HttpAppOptions): Express {
  const { logger, readiness = {}, jsonBodyLimit = '100kb', probeTimeoutMs = 2000 } = options;
  const app = express();
  app.disable('x-powered-by');
  app.use(requestLogging(logger));
  app.use(express.json({ limit: jsonBodyLimit }));

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
  app.use((_req, _res, next) => next(new AppError('not-found', 'Not found')));
  app.use(errorMiddleware(logger));
  return app;
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

function requestLogging(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const startedAt = process.hrtime.bigint();
    res.on('finish', () => {
      const durationMs = Number(process.hrtime.bigint() - startedAt) / 1e6;
      const line = { method: req.method, path: req.path, status: res.statusCode, durationMs };
      if (req.path.startsWith('/health/')) logger.debug(line, 'request');
      else logger.info(line, 'request');
    });
    next();
  };
}

/** Express's side of the central error handler: answers with the docs/api.md error body. */
export function errorMiddleware(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, _next) => {
    const appError = handleError(fromBodyParser(error), logger, {
      method: req.method,
      path: req.path,
    });
    res.status(appError.httpStatus).json(toErrorBody(appError));
  };
}

/** body-parser throws plain errors with a `type`; those are the caller's fault, not ours. */
function fromBodyParser(error: unknown): unknown {
  const type = (error as { type?: unknown } | null)?.type;
  if (type === 'entity.parse.failed') {
    return new AppError('invalid-argument', 'Malformed JSON body', { cause: error });
  }
  if (type === 'entity.too.large') {
    return new AppError('payload-too-large', 'Body too large', { cause: error });
  }
  return error;
}

/** A listening HTTP server and how to close it. */
export interface RunningServer {
  /** The port actually bound (useful when 0 was asked). */
  port: number;
  server: Server;
  close(): Promise<void>;
}

/**
 * Listens on one interface: loopback unless the `HOST` environment variable
 * names another (containers set `HOST=0.0.0.0`: compose, k8s, the Dockerfiles).
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
      if (error) {
        reject(error);
        return;
      }
      resolve({
        port: (server.address() as AddressInfo).port,
        server,
        close: () =>
          new Promise<void>((done, fail) => {
            server.close((closeError) => (closeError ? fail(closeError) : done()));
            server.closeAllConnections();
          }),
      });
    });
  });
}
