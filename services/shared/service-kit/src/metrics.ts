/**
 * Prometheus metrics of every app (names are the contract of
 * docs/operations.md "Metrics"), with prom-client. Two registries make one
 * `/metrics` answer, served on the app's own port (public routes forward
 * only `/api` and `/live`):
 * - the process's (prom-client's global `register`): the default Node
 *   metrics (CPU, memory, GC, event-loop lag) and the calls this process
 *   makes to other services and Keycloak ({@link upstreamCallMetric});
 * - the app's own ({@link createAppMetrics}): its HTTP requests by route
 *   pattern, its outbox, its consumer, and what an app adds (the BFF's sockets
 *   and pushes). Apps started together in one process (tests) keep theirs apart.
 */
import type { Request, RequestHandler } from 'express';
import {
  collectDefaultMetrics,
  Counter,
  Gauge,
  Histogram,
  register as processRegistry,
  Registry,
  type CounterConfiguration,
  type GaugeConfiguration,
  type HistogramConfiguration,
} from 'prom-client';

/** Seconds buckets of request and call durations: 5 ms … 10 s. */
export const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

let defaultMetricsStarted = false;

/** Starts prom-client's default Node metrics in the process registry, once per process. */
function startDefaultMetrics(): void {
  if (defaultMetricsStarted) return;
  defaultMetricsStarted = true;
  collectDefaultMetrics({ register: processRegistry });
}

/**
 * One metric of a registry, created on first use: the same name asked twice
 * (a second app in the process, a module loaded twice) gets the first one.
 */
function metricOf<T>(registry: Registry, name: string, create: () => T): T {
  return (registry.getSingleMetric(name) as T | undefined) ?? create();
}

/** The metrics of one app (a service or the BFF): its own registry and its HTTP series. */
export interface AppMetrics {
  /** The app's registry: register the app's own metrics here ({@link AppMetrics.counter} etc.). */
  registry: Registry;
  /** A counter of this app, created once by name. */
  counter<L extends string>(config: Omit<CounterConfiguration<L>, 'registers'>): Counter<L>;
  /** A gauge of this app, created once by name (`collect` runs at scrape time). */
  gauge<L extends string>(config: Omit<GaugeConfiguration<L>, 'registers'>): Gauge<L>;
  /** A histogram of this app, created once by name. */
  histogram<L extends string>(config: Omit<HistogramConfiguration<L>, 'registers'>): Histogram<L>;
}

/**
 * Creates the metrics of one app and starts the process's default metrics.
 * @returns an empty app registry with helpers to add metrics to it
 */
export function createAppMetrics(): AppMetrics {
  startDefaultMetrics();
  const registry = new Registry();
  return {
    registry,
    counter: (config) =>
      metricOf(registry, config.name, () => new Counter({ ...config, registers: [registry] })),
    gauge: (config) =>
      metricOf(registry, config.name, () => new Gauge({ ...config, registers: [registry] })),
    histogram: (config) =>
      metricOf(registry, config.name, () => new Histogram({ ...config, registers: [registry] })),
  };
}

/**
 * The route pattern of a request, never its raw URL (bounded label values):
 * the mount path of its router and the matched route, e.g.
 * `/api/brands/:id/members`; `unmatched` when no route matched (404s,
 * probes of unknown paths). The mount is read from the URL's leading
 * segments, as many as the URL has beyond the route's — every Raly mount is
 * a literal path — so it is right even after an error has left the routers.
 */
export function routeOf(req: Request): string {
  const route = (req.route as { path?: unknown } | undefined)?.path;
  if (typeof route !== 'string') return 'unmatched';
  const routeSegments = route.split('/').filter(Boolean);
  // A wildcard (`/files/*key`) matches any number of segments: only express's own baseUrl is known.
  if (route.includes('*') || route.includes('{')) return `${req.baseUrl}${route}`;
  const pathSegments = (req.originalUrl.split('?')[0] ?? '').split('/').filter(Boolean);
  const mount = pathSegments.slice(0, Math.max(0, pathSegments.length - routeSegments.length));
  return `/${[...mount.map((segment) => segment.toLowerCase()), ...routeSegments].join('/')}`;
}

/**
 * Express middleware timing every request: `http_request_duration_seconds`
 * (histogram) and `http_requests_total` (counter), labelled `method`,
 * `route` ({@link routeOf}) and `status_code`. `/metrics` itself is not counted.
 */
export function httpMetrics(metrics: AppMetrics): RequestHandler {
  const labelNames = ['method', 'route', 'status_code'] as const;
  const duration = metrics.histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from the request to its answer being sent, by route pattern and status.',
    labelNames,
    buckets: DURATION_BUCKETS,
  });
  const requests = metrics.counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by route pattern and status.',
    labelNames,
  });
  return (req, res, next) => {
    if (req.path === METRICS_PATH) {
      next();
      return;
    }
    const startedAt = process.hrtime.bigint();
    res.once('finish', () => {
      const labels = { method: req.method, route: routeOf(req), status_code: res.statusCode };
      duration.observe(labels, Number(process.hrtime.bigint() - startedAt) / 1e9);
      requests.inc(labels);
    });
    next();
  };
}

/** Where every app answers Prometheus's scrape. */
export const METRICS_PATH = '/metrics';

/**
 * The `/metrics` handler: the app's registry and the process's, in the
 * Prometheus text format. A collector that fails (a database down at scrape
 * time) leaves its series out (see the app's gauges) rather than failing the scrape.
 */
export function metricsHandler(metrics: AppMetrics): RequestHandler {
  return (_req, res, next) => {
    const merged = Registry.merge([metrics.registry, processRegistry]);
    merged.metrics().then((text) => {
      res.type(merged.contentType).send(text);
    }, next);
  };
}

/**
 * `raly_upstream_request_duration_seconds`: the calls this process makes to
 * other services and to Keycloak (histogram; labels `target` — the callee's
 * name, e.g. `keycloak`, `identity-profile`, or its host:port —, `method`,
 * `outcome`: the status class `2xx`…`5xx` or `unreachable`).
 */
export function upstreamCallMetric(): Histogram<'target' | 'method' | 'outcome'> {
  startDefaultMetrics();
  return metricOf(
    processRegistry,
    'raly_upstream_request_duration_seconds',
    () =>
      new Histogram({
        name: 'raly_upstream_request_duration_seconds',
        help: 'Calls to other services and Keycloak: time to the whole answer, by target and outcome.',
        labelNames: ['target', 'method', 'outcome'] as const,
        buckets: DURATION_BUCKETS,
        registers: [processRegistry],
      }),
  );
}

/**
 * Times one call to another service or Keycloak into {@link upstreamCallMetric}.
 * @param target the callee's name (bounded: a configured host, never a URL path)
 * @param call the call; its answer's `status` gives the outcome, a throw `unreachable`
 * @returns what `call` returned
 * @throws what `call` threw
 */
export async function timeUpstreamCall<T extends { status: number }>(
  target: string,
  method: string,
  call: () => Promise<T>,
): Promise<T> {
  const end = upstreamCallMetric().startTimer({ target, method });
  try {
    const answer = await call();
    end({ outcome: `${Math.floor(answer.status / 100)}xx` });
    return answer;
  } catch (error) {
    end({ outcome: 'unreachable' });
    throw error;
  }
}
