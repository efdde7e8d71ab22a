/**
 * The scaled topology's load balancer: HAProxy from Debian's `haproxy`
 * package (installed with apt when missing), one process with
 * - the entry (SPA, `/api`, `/live`): `/api` round robin over the BFF
 *   replicas; `/live` (socket.io) sticky by an inserted cookie, so an HTTP
 *   long-polling session's requests reach the replica that holds it, with
 *   websocket upgrades tunnelled; everything else to the web app;
 * - one internal entry per service in front of its instances (round robin),
 *   which the BFF and the services call instead of one instance;
 * - a statistics frontend: `/stats` (page), `/health` (HAProxy itself),
 *   `/metrics` (HAProxy's Prometheus exporter, when the build has it).
 * Backends are health-checked on `/health/ready`; a replica that is down or
 * draining gets no new requests, and a sticky client is sent to another one.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StackComponent } from '../component';
import { installDebianPackages } from '../debian';
import { ensureDirectory } from '../paths';
import { execFileAsync, recordedLiveProcess, stopRecorded } from '../processes';
import { httpAnswers } from '../probes';
import { withProgress } from '../progress';
import { host } from '../settings';
import { startAndAwaitHealthy } from './background';

/** One backend server: its name (also the sticky cookie's value) and port on 127.0.0.1. */
export interface Upstream {
  name: string;
  port: number;
}

/** What the generated configuration routes. */
export interface LoadBalancerPlan {
  /** The entry's port (the SPA's single origin). */
  entryPort: number;
  /** BFF replicas: `/api` and `/live`. */
  bff: Upstream[];
  /** The web app (SPA): everything that is neither `/api` nor `/live`. */
  web: Upstream;
  /** Internal entries: one port per service in front of its instances. */
  services: { name: string; port: number; instances: Upstream[] }[];
  statsPort: number;
  /** socket.io's path (`/live`) and the API prefix (`/api`). */
  livePath: string;
  apiPath: string;
  /** Whether the haproxy build has the Prometheus exporter (`haproxy -vv` lists PROMEX). */
  prometheusExporter: boolean;
  /** The sticky cookie's name (default `RALY_LIVE`). */
  stickyCookie?: string;
}

const checkedServer = (upstream: Upstream, extra = '') =>
  `  server ${upstream.name} ${host}:${upstream.port} check inter 1s fall 2 rise 2${extra}`;

/**
 * The haproxy.cfg text for a plan (see the module comment).
 * @returns the configuration file's text
 */
export function haproxyConfig(plan: LoadBalancerPlan): string {
  const cookie = plan.stickyCookie ?? 'RALY_LIVE';
  const readinessCheck = ['  option httpchk GET /health/ready', '  http-check expect status 200'];
  const lines = [
    'global',
    // Each proxied connection holds two descriptors; the limit here is often 20,000.
    '  maxconn 5000',
    '',
    'defaults',
    '  mode http',
    '  log stdout format raw local0',
    '  option httplog',
    '  option forwardfor',
    '  option redispatch',
    '  retries 2',
    // Only a request that never reached a server is retried (on another one: redispatch);
    // a PATCH that a replica received and then died on is not sent twice.
    '  retry-on conn-failure',
    '  timeout connect 2s',
    '  timeout client 60s',
    '  timeout server 60s',
    // socket.io's long-polling requests are held up to pingInterval + pingTimeout (45 s by default).
    '  timeout http-request 10s',
    // An upgraded websocket is a tunnel: kept open while socket.io pings (every 25 s).
    '  timeout tunnel 1h',
    '',
    'frontend entry',
    `  bind ${host}:${plan.entryPort}`,
    // Two lines of one ACL are OR'ed: the prefix itself, or a path under it (not `/apiary`).
    `  acl is_live path ${plan.livePath}`,
    `  acl is_live path_beg ${plan.livePath}/`,
    `  acl is_api path ${plan.apiPath}`,
    `  acl is_api path_beg ${plan.apiPath}/`,
    '  use_backend bff_live if is_live',
    '  use_backend bff_api if is_api',
    '  default_backend web',
    '',
    'backend bff_api',
    '  balance roundrobin',
    ...readinessCheck,
    ...plan.bff.map((upstream) => checkedServer(upstream)),
    '',
    'backend bff_live',
    // Round robin for a new session, then the cookie keeps it on its replica (long-polling needs that).
    '  balance roundrobin',
    `  cookie ${cookie} insert indirect nocache httponly`,
    ...readinessCheck,
    ...plan.bff.map((upstream) => checkedServer(upstream, ` cookie ${upstream.name}`)),
    '',
    'backend web',
    checkedServer(plan.web),
    '',
  ];
  for (const service of plan.services) {
    lines.push(
      `listen ${service.name}`,
      `  bind ${host}:${service.port}`,
      '  balance roundrobin',
      ...readinessCheck,
      ...service.instances.map((upstream) => checkedServer(upstream)),
      '',
    );
  }
  lines.push(
    'frontend stats',
    `  bind ${host}:${plan.statsPort}`,
    '  monitor-uri /health',
    ...(plan.prometheusExporter
      ? ['  http-request use-service prometheus-exporter if { path /metrics }']
      : []),
    '  stats enable',
    '  stats uri /stats',
    '  stats refresh 5s',
    '',
  );
  return lines.join('\n');
}

/** Whether `haproxy` is on PATH (or in /usr/sbin, where Debian puts it). */
function haproxyExecutable(): string | undefined {
  for (const candidate of ['haproxy', '/usr/sbin/haproxy']) {
    try {
      execFileSync(candidate, ['-v'], { stdio: 'ignore' });
      return candidate;
    } catch {
      // not this one
    }
  }
  return undefined;
}

/** Whether this haproxy build has the Prometheus exporter service. */
export function haproxyHasPrometheusExporter(executable = haproxyExecutable()): boolean {
  if (!executable) return false;
  try {
    return /PROMEX/.test(execFileSync(executable, ['-vv'], { encoding: 'utf8' }));
  } catch {
    return false;
  }
}

/**
 * The load balancer as a stack component. `plan` is computed when it starts
 * (it asks the haproxy build whether it has the Prometheus exporter).
 * @param dataRoot where haproxy.cfg is written
 */
export function haproxyComponent(
  name: string,
  dataRoot: string,
  plan: (prometheusExporter: boolean) => LoadBalancerPlan,
  statsPort: number,
): StackComponent {
  const healthUrl = `http://${host}:${statsPort}/health`;
  const isHealthy = () => httpAnswers(healthUrl);
  return {
    name,
    address: `${host}:${plan(false).entryPort} (stats ${host}:${statsPort}/stats)`,
    isHealthy,
    async ensure() {
      if (await isHealthy()) return 'reused';
      if (recordedLiveProcess(name)) await stopRecorded(name);
      let executable = haproxyExecutable();
      if (!executable) {
        await installDebianPackages(name, ['haproxy']);
        executable = haproxyExecutable();
        if (!executable) throw new Error(`${name}: haproxy is still missing after apt-get`);
      }
      const configFile = join(ensureDirectory(dataRoot), 'haproxy.cfg');
      writeFileSync(configFile, haproxyConfig(plan(haproxyHasPrometheusExporter(executable))));
      await execFileAsync(executable, ['-c', '-q', '-f', configFile]).catch((error: unknown) => {
        throw new Error(`${name}: ${configFile} is invalid: ${(error as Error).message}`, {
          cause: error,
        });
      });
      await withProgress(name, 'starting HAProxy', () =>
        startAndAwaitHealthy(
          { component: name, command: executable, args: ['-db', '-f', configFile] },
          isHealthy,
          20_000,
        ),
      );
      return 'started';
    },
    stop: () => stopRecorded(name, 10_000),
  };
}
