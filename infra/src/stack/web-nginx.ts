/**
 * The web app's production build served the way production serves it: by
 * Debian's nginx with the server rules of web/nginx.conf (the image's
 * template), rendered as the image's entrypoint renders it (envsubst of the
 * variables in web/Dockerfile's NGINX_ENVSUBST_FILTER). Only the listen
 * address and the document root differ: a loopback port and web/dist.
 * Used by the scaled topology (the SPA behind HAProxy) and the benchmark
 * suite's LCP rows. Both install Debian's nginx-light when it is missing
 * ({@link ensureNginx}).
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { installDebianPackages } from './debian';
import { ensureDirectory, repositoryRoot } from './paths';

/** nginx's binary (NGINX_BIN overrides Debian's path) and its MIME table. */
export const nginxBinary = process.env.NGINX_BIN ?? '/usr/sbin/nginx';
const mimeTypes = '/etc/nginx/mime.types';
const webRoot = join(repositoryRoot, 'web');
/** Where `npm run build -w web` writes the production build. */
export const webBuildDirectory = join(webRoot, 'dist');

/** The values of web/nginx.conf's `${NAME}`s: the SPA's runtime configuration (`/config.json`). */
export type WebServerVariables = Record<
  'BFF_PUBLIC_URL' | 'BACKEND_ENV' | 'CONSOLE_KEYCLOAK_URL' | 'CONSOLE_REALM' | 'CONSOLE_CLIENT_ID',
  string
>;

/**
 * web/nginx.conf rendered for this machine.
 * @param variables values of the template's `${NAME}`s
 * @param port the loopback port it listens on
 * @param root the document root (normally web/dist)
 * @returns the `server {…}` configuration text, for an `http` block
 * @throws Error when the template no longer has the lines replaced here, or
 *   names a variable not given (so a change of web/nginx.conf is noticed)
 */
export function renderWebServerConfig(
  variables: Record<string, string>,
  port: number,
  root: string,
): string {
  let config = readFileSync(join(webRoot, 'nginx.conf'), 'utf8');
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
 * Installs Debian's nginx-light when nginx is missing (as root; otherwise says what to install).
 * @throws Error when it cannot be installed
 */
export async function ensureNginx(component: string): Promise<void> {
  if (existsSync(nginxBinary) && existsSync(mimeTypes)) return;
  await installDebianPackages(component, ['nginx-light']);
  if (!existsSync(nginxBinary))
    throw new Error(`${component}: nginx is still missing after apt-get`);
}

/**
 * Writes a self-contained nginx configuration (pid, logs and temp folders
 * inside `directory`, no daemon, one worker) serving web/dist.
 * @returns the nginx command line (binary and arguments) and the error log's path
 * @throws Error when nginx or its MIME table is missing, or web/dist has no build
 */
export function webServerCommand(
  directory: string,
  variables: WebServerVariables,
  port: number,
): { command: string; args: string[]; errorLog: string } {
  if (!existsSync(nginxBinary) || !existsSync(mimeTypes))
    throw new Error(`nginx is needed (${nginxBinary}, ${mimeTypes}): apt-get install nginx-light`);
  if (!existsSync(join(webBuildDirectory, 'index.html')))
    throw new Error('web/dist has no build: npm run build -w web');
  ensureDirectory(directory);
  const file = (name: string) => join(directory, name);
  writeFileSync(file('web.conf'), renderWebServerConfig(variables, port, webBuildDirectory));
  writeFileSync(
    file('nginx.conf'),
    `daemon off;
worker_processes 1;
pid ${file('nginx.pid')};
error_log ${file('error.log')} warn;
events { worker_connections 1024; }
http {
  include ${mimeTypes};
  default_type application/octet-stream;
  access_log off;
  sendfile on;
  keepalive_timeout 65;
  client_body_temp_path ${file('body')};
  proxy_temp_path ${file('proxy')};
  fastcgi_temp_path ${file('fastcgi')};
  uwsgi_temp_path ${file('uwsgi')};
  scgi_temp_path ${file('scgi')};
  include ${file('web.conf')};
}
`,
  );
  return {
    command: nginxBinary,
    args: ['-p', directory, '-c', file('nginx.conf'), '-e', file('error.log')],
    errorLog: file('error.log'),
  };
}

/** The newest modification time (ms) of a file or of anything under a folder (node_modules and dist skipped). */
function newestChange(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path)
    .filter((name) => name !== 'node_modules' && name !== 'dist')
    .reduce((newest, name) => Math.max(newest, newestChange(join(path, name))), stat.mtimeMs);
}

/** Whether web/dist is missing or older than a source of the web app (or of the contracts it bundles). */
export function webBuildIsStale(): boolean {
  const built = join(webBuildDirectory, 'index.html');
  if (!existsSync(built)) return true;
  const sources = Math.max(
    newestChange(join(webRoot, 'src')),
    newestChange(join(webRoot, 'index.html')),
    newestChange(join(webRoot, 'package.json')),
    newestChange(join(webRoot, 'vite.config.ts')),
    newestChange(join(repositoryRoot, 'services', 'contracts', 'src')),
  );
  return statSync(built).mtimeMs < sources;
}

/**
 * Builds the web app (`npm run build -w web`) when web/dist is stale.
 * @returns whether it built
 * @throws Error with the build's output when it fails
 */
export async function ensureWebBuild(): Promise<boolean> {
  if (!webBuildIsStale()) return false;
  await new Promise<void>((resolve, reject) =>
    execFile(
      'npm',
      ['run', 'build', '-w', 'web'],
      // A production build whatever NODE_ENV this process has (Vite follows it for React's build).
      {
        cwd: repositoryRoot,
        maxBuffer: 64 * 1024 * 1024,
        env: { ...process.env, NODE_ENV: 'production' },
      },
      (error, stdout, stderr) =>
        error
          ? reject(
              new Error(
                `npm run build -w web failed (${error.message}):\n${`${stdout}${stderr}`.slice(-4000)}`,
              ),
            )
          : resolve(),
    ),
  );
  return true;
}
