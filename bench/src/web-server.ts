/**
 * The web app's production build served by nginx, for the LCP rows: the
 * configuration is infra's rendering of web/nginx.conf (see
 * infra/src/stack/web-nginx.ts); here only a free loopback port and a
 * temporary folder. /api and /live are not routed (the ingress's job): the
 * pages measured here (/ and /login, signed out) call neither before they
 * are drawn.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  ensureNginx,
  webServerCommand,
  type WebServerVariables,
} from '@raly/infra/stack/web-nginx';
import { eventually } from '@raly/test-support';
import { benchPort } from './ports';

export interface WebServer {
  /** e.g. http://127.0.0.1:41234 */
  url: string;
  stop(): Promise<void>;
}

/** The runtime configuration the server hands the app (web/nginx.conf's variables). */
export const benchWebEnvironment: WebServerVariables = {
  BFF_PUBLIC_URL: '',
  BACKEND_ENV: 'production',
  CONSOLE_KEYCLOAK_URL: '',
  CONSOLE_REALM: 'raly',
  CONSOLE_CLIENT_ID: 'raly-console',
};

/**
 * Starts nginx on web/dist (build it first) on a free loopback port, with
 * infra's rendering of web/nginx.conf (`@raly/infra/stack/web-nginx`);
 * installs Debian's nginx-light first when it is missing (as `npm start` installs the stack).
 * @throws Error when nginx cannot be installed, web/dist has no build,
 *   or it does not answer /healthz within 10 s
 */
export async function startWebServer(
  variables: WebServerVariables = benchWebEnvironment,
): Promise<WebServer> {
  await ensureNginx('bench');
  const port = await benchPort();
  const directory = mkdtempSync(path.join(os.tmpdir(), 'raly-bench-nginx-'));
  const { command, args, errorLog } = webServerCommand(directory, variables, port);
  const child: ChildProcess = spawn(command, args, { stdio: ['ignore', 'ignore', 'inherit'] });
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
          throw new Error(`nginx exited with ${child.exitCode}: ${readLog(errorLog)}`);
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
