/** The routes an express app really registers, and the check that a fuzz lists every one. */
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import type { FuzzRoute } from './types';

interface RouterLayer {
  route?: { path: string; methods: Record<string, boolean> };
  handle?: { stack?: RouterLayer[] };
  rawPath?: unknown;
}

export const joinPaths = (prefix: string, path: string) => {
  const joined = `${prefix}/${path}`.replace(/\/+/g, '/');
  return joined.length > 1 ? joined.replace(/\/$/, '') : joined;
};

/**
 * Walks an express 5 app's router stack, nested routers included.
 * @param app an express application (see {@link captureExpressApps})
 * @returns `METHOD /path` for every route, e.g. `GET /brands/:id`, sorted
 */
export function registeredRoutes(app: unknown): string[] {
  const found = new Set<string>();
  const walk = (stack: RouterLayer[], prefix: string) => {
    for (const layer of stack) {
      if (layer.route) {
        const path = joinPaths(prefix, layer.route.path);
        for (const [method, on] of Object.entries(layer.route.methods))
          if (on && method !== '_all') found.add(`${method.toUpperCase()} ${path}`);
      } else if (layer.handle?.stack) {
        const mount = typeof layer.rawPath === 'string' ? layer.rawPath : '';
        walk(layer.handle.stack, joinPaths(prefix, mount));
      }
    }
  };
  walk((app as { router: { stack: RouterLayer[] } }).router.stack, '');
  return [...found].sort();
}

/** `METHOD /path` of the fuzz's routes, sorted, to compare with {@link registeredRoutes}. */
export function fuzzedRoutes(routes: FuzzRoute[]): string[] {
  return [...new Set(routes.map((route) => `${route.method} ${joinPaths('', route.path)}`))].sort();
}

/**
 * `express.application` of the express copy the service kit builds every
 * service's app with (the kit's own dependency, which may be another copy
 * than this workspace's).
 */
function kitExpressApplication(): object {
  const kitHttp = createRequire(import.meta.url).resolve('@raly/service-kit/http');
  return (createRequire(kitHttp)('express') as { application: object }).application;
}

/**
 * Records every express app created until `stop()`, so a test can walk the
 * real app's routes without the app exposing itself: call it before the
 * app starts, stop it once started.
 * @param application `express.application` of the express copy the app is
 *   built with (default: the service kit's, which every service uses)
 */
export function recordExpressApps(application: object = kitExpressApplication()): {
  apps: unknown[];
  stop(): void;
} {
  const proto = application as { init: (this: unknown) => void };
  const init = proto.init;
  const apps: unknown[] = [];
  proto.init = function recordingInit(this: unknown) {
    apps.push(this);
    init.call(this);
  };
  return {
    apps,
    stop() {
      proto.init = init;
    },
  };
}

/**
 * Asserts that `routes` lists exactly the routes the recorded apps register
 * (of the apps recorded, those that register any route of the list).
 * @throws AssertionError naming the routes not fuzzed (or listed but gone)
 */
export function assertCoversEveryRoute(apps: unknown[], routes: FuzzRoute[]): void {
  const listed = new Set(fuzzedRoutes(routes));
  // Of several apps started together (a test system), the ones this list is about (the probes
  // and /metrics of every app tell nothing).
  const shared = (route: string) => route.includes(' /health') || route.endsWith(' /metrics');
  const mine = apps
    .map(registeredRoutes)
    .filter((registered) => registered.some((route) => !shared(route) && listed.has(route)));
  assert.ok(mine.length > 0, 'no express app with these routes was recorded while it started');
  const registered = [...new Set(mine.flat())].sort();
  assert.deepEqual(fuzzedRoutes(routes), registered, 'the fuzz must list every registered route');
}
