/**
 * The web app's production build served the way production serves it: by
 * nginx, with the server rules of web/nginx.conf (the image's template),
 * rendered as the image's entrypoint renders it (envsubst of the variables
 * named in web/Dockerfile's NGINX_ENVSUBST_FILTER). Only the port and the
 * document root differ: a free loopback port and web/dist. /api and /live
 * are not routed (the ingress's job): the pages measured here (/ and
 * /login, signed out) call neither before they are drawn.
 *
 * Needs Debian's nginx (`apt-get install nginx-light`; .ci/run installs it).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eventually } from '@raly/test-support';
import { benchPort } from './ports';
import { repositoryRoot } from './bench-system';

/** nginx's binary and its MIME table (Debian's paths; NGINX_BIN overrides the binary). */
const NGINX_BIN = process.env.NGINX_BIN ?? '/usr/sbin/nginx';
const MIME_TYPES = '/etc/nginx/mime.types';

export interface WebServer {
  /** e.g. http://127.0.0.1:41234 */
  url: string;
  stop(): Promise<void>;
}

/** The runtime configuration the server hands the app (web/nginx.conf's variables). */
export const benchWebEnvironment: Record<string, string> = {
  KEYCLOAK_PUBLIC_URL: 'http://localhost:8080',
  KEYCLOAK_REALM: 'raly',
  KEYCLOAK_WEB_CLIENT_ID: 'raly-web',
  BFF_PUBLIC_URL: '',
  BACKEND_ENV: 'production',
};

/**
 * web/nginx.conf rendered for this machine.
 * @param variables values of the template's ${NAME}s
 * @throws Error when the template no longer has the lines replaced here, or
 *   names a variable not given (so a change of web/nginx.conf is noticed)
 */
export function renderWebServerConfig(
  variables: Record<string, string>,
  port: number,
  root: string,
): string {
  let config = readFileSync(path.join(repositoryRoot, 'web', 'nginx.conf'), 'utf8');
  const replace = (from: string, to: string) => {
    if (!config.includes(from)) throw new Error(`web/nginx.conf no longer has "${from}"`);
    config = config.replace(from, to);
  };
  replace('listen 8080;', `listen 127.0.0.1:${port};`);
  replace('root /usr/share/nginx/html;', `root ${root};`);
  config = config.replace(/\$\{([A-Z_]+)\}/g, (_match, name: string) => {
    const value = variables[name];
    if (value === undefined) throw new Error(`web/nginx.conf uses \${${name}}, not given`);
    return value;
  });
  return config;
}

/**
 * Starts nginx on web/dist (build it first) on a free loopback port.
 * @throws Error when nginx or its MIME table is missing, or it does not answer /healthz within 10 s
 */
export async function startWebServer(
  variables: Record<string, string> = benchWebEnvironment,
): Promise<WebServer> {
  if (!existsSync(NGINX_BIN) || !existsSync(MIME_TYPES))
    throw new Error(`nginx is needed (${NGINX_BIN}, ${MIME_TYPES}): apt-get install nginx-light`);
  const root = path.join(repositoryRoot, 'web', 'dist');
  if (!existsSync(path.join(root, 'index.html')))
    throw new Error('web/dist has no build: npm run build -w web');
  const port = await benchPort();
  const directory = mkdtempSync(path.join(os.tmpdir(), 'raly-bench-nginx-'));
  writeFileSync(path.join(directory, 'web.conf'), renderWebServerConfig(variables, port, root));
  const temp = (name: string) => path.join(directory, name);
  writeFileSync(
    path.join(directory, 'nginx.conf'),
    `daemon off;
worker_processes 1;
pid ${temp('nginx.pid')};
error_log ${temp('error.log')} warn;
events { worker_connections 256; }
http {
  include ${MIME_TYPES};
  default_type application/octet-stream;
  access_log off;
  sendfile on;
  keepalive_timeout 65;
  client_body_temp_path ${temp('body')};
  proxy_temp_path ${temp('proxy')};
  fastcgi_temp_path ${temp('fastcgi')};
  uwsgi_temp_path ${temp('uwsgi')};
  scgi_temp_path ${temp('scgi')};
  include ${temp('web.conf')};
}
`,
  );
  const child: ChildProcess = spawn(
    NGINX_BIN,
    ['-p', directory, '-c', temp('nginx.conf'), '-e', temp('error.log')],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(directory, { recursive: true, force: true });
  };
  try {
    await eventually(
      'nginx to answer /healthz',
      async () => {
        if (child.exitCode !== null)
          throw new Error(`nginx exited with ${child.exitCode}: ${readLog(temp('error.log'))}`);
        return (await fetch(`${url}/healthz`).catch(() => undefined))?.ok;
      },
      { timeoutMs: 10_000, intervalMs: 100 },
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, stop };
}

function readLog(file: string): string {
  return existsSync(file) ? readFileSync(file, 'utf8').slice(-2000) : '(no log)';
}
