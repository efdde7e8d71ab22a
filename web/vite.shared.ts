/**
 * The one Vite configuration of the web app, as a function so that the dev
 * server (vite.config.ts) and the end-to-end harness (test/e2e) build it the
 * same way and differ only in where the BFF lives.
 */
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import type { ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { build as esbuild } from 'esbuild';
import type { Plugin, ProxyOptions, UserConfig } from 'vite';

export interface WebConfigOptions {
  /** Base URL of the BFF that /api and /live are proxied to, e.g. http://127.0.0.1:4000. */
  bffUrl: string;
  /** /config.json (the BFF's public origin, the backend); dev defaults when left out. */
  runtimeConfig?: Partial<RuntimeConfigJson>;
  /** Port of the dev/preview server; 0 lets the OS choose. */
  port?: number;
}

/**
 * Content-Security-Policy of the built app: scripts only from our own origin
 * (no inline script, no eval), network only to our origin (API, socket), the
 * BFF's when it has its own and Keycloak's when the staff console is
 * configured, no framing. The product never calls Keycloak (docs/adr/0009);
 * only the console's keycloak-js does (its token requests; its sign-in and
 * sign-out are navigations, docs/console.md). Images as before (any http(s)
 * URL: media's download base). See docs/adr/0002-browser-session.md.
 * @param bffUrl /config.json's `bffUrl`: '' (the BFF on this origin) or the BFF's origin
 * @param consoleKeycloakUrl /config.json's `consoleKeycloakUrl`: '' (no console sign-in) or
 *   Keycloak's origin
 * @returns the header's value; web/nginx.conf renders the same policy
 * @throws TypeError when a non-empty argument is not a URL
 */
export function contentSecurityPolicy(bffUrl = '', consoleKeycloakUrl = ''): string {
  const bffOrigin = bffUrl ? ` ${new URL(bffUrl).origin}` : '';
  const keycloakOrigin = consoleKeycloakUrl ? ` ${new URL(consoleKeycloakUrl).origin}` : '';
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https: http:",
    `connect-src 'self' ws: wss:${bffOrigin}${keycloakOrigin}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * The runtime configuration the app reads at start (/config.json,
 * src/config/env.ts), as the nginx image renders it from its environment:
 * the dev and preview servers answer it from these options.
 */
export interface RuntimeConfigJson {
  bffUrl: string;
  backendEnvironment: 'local' | 'staging' | 'production';
  /** The staff console's sign-in (docs/console.md): Keycloak's origin, realm, public client. */
  consoleKeycloakUrl?: string;
  consoleRealm?: string;
  consoleClientId?: string;
}

/** Serves /config.json on the dev and preview servers (never written into the build). */
function runtimeConfigPlugin(config: RuntimeConfigJson): Plugin {
  const body = JSON.stringify(config);
  const serve = (middlewares: {
    use(path: string, handler: (request: unknown, response: ServerResponse) => void): void;
  }) =>
    middlewares.use('/config.json', (_request, response) => {
      response.setHeader('Content-Type', 'application/json');
      response.setHeader('Cache-Control', 'no-cache');
      response.end(body);
    });
  return {
    name: 'raly-runtime-config',
    // Block bodies: a hook that returns a function has it run later, as a post hook.
    configureServer(server) {
      serve(server.middlewares);
    },
    configurePreviewServer(server) {
      serve(server.middlewares);
    },
  };
}

/**
 * Builds each of `files` as its own bundle, its dependencies inlined and
 * tree-shaken for it alone, instead of sharing their modules with the rest
 * of the app: Rollup puts a module used by the first page and by a lazy
 * chunk whole into the first page. For the modules that run before first
 * paint and need a few parts of a big library: src/config/runtime-config-schema.ts
 * (zod/mini, ~6 KiB gzip instead of zod's whole core, ~15) and
 * src/lib/store-toolkit.ts (the store's parts of Redux Toolkit, ~3.3 KiB
 * instead of Redux Toolkit with immer and reselect, ~19). Such a module must
 * import no module of the app (it would get a second copy). Build only; the
 * dev server serves the modules as they are.
 */
function standaloneModulesPlugin(files: string[]): Plugin {
  let nodeEnv = 'production';
  return {
    name: 'raly-standalone-modules',
    apply: 'build',
    enforce: 'pre',
    configResolved(config) {
      nodeEnv = config.isProduction ? 'production' : 'development';
    },
    async load(id) {
      if (!files.includes(id)) return null;
      const bundled = await esbuild({
        entryPoints: [id],
        bundle: true,
        format: 'esm',
        platform: 'browser',
        target: 'es2022',
        write: false,
        logLevel: 'warning',
        // Redux Toolkit's development checks are behind process.env.NODE_ENV, as in the app's modules.
        define: { 'process.env.NODE_ENV': JSON.stringify(nodeEnv) },
      });
      return bundled.outputFiles[0]!.text;
    },
  };
}

/**
 * Makes the proxy tell the BFF who the client is: X-Forwarded-For becomes
 * the browser's own socket address, overwriting whatever the browser sent,
 * so the BFF (TRUST_PROXY=loopback in `npm start`) counts its rate limits
 * per real client and a forged header changes nothing (docs/api.md).
 */
const forwardClientAddress: ProxyOptions['configure'] = (proxy) => {
  const setClientAddress = (
    proxyRequest: { setHeader(name: string, value: string): unknown },
    request: { socket: { remoteAddress?: string } },
  ) => {
    proxyRequest.setHeader('x-forwarded-for', request.socket.remoteAddress ?? 'unknown');
  };
  proxy.on('proxyReq', setClientAddress);
  proxy.on('proxyReqWs', setClientAddress);
};

/** @returns /api and /live to the BFF, with the client's address in X-Forwarded-For */
export function proxyTable(bffUrl: string): Record<string, ProxyOptions> {
  return {
    '/api': { target: bffUrl, changeOrigin: true, configure: forwardClientAddress },
    '/live': { target: bffUrl, changeOrigin: true, ws: true, configure: forwardClientAddress },
  };
}

/**
 * @param options where the BFF is (proxy target and /config.json), the backend, the port
 * @returns a Vite config: React + Tailwind, server on host localhost with the
 *   BFF proxy, preview with the same proxy and the security headers
 */
export function webConfig(options: WebConfigOptions): UserConfig {
  const proxy = proxyTable(options.bffUrl);
  const runtimeConfig: RuntimeConfigJson = {
    bffUrl: '',
    backendEnvironment: 'local',
    ...options.runtimeConfig,
  };
  return {
    root: import.meta.dirname,
    plugins: [
      react(),
      tailwindcss(),
      runtimeConfigPlugin(runtimeConfig),
      standaloneModulesPlugin([
        `${import.meta.dirname}/src/config/runtime-config-schema.ts`,
        `${import.meta.dirname}/src/lib/store-toolkit.ts`,
      ]),
    ],
    resolve: {
      alias: [
        { find: '@', replacement: `${import.meta.dirname}/src` },
        // socket.io-client's own pre-bundled ES module: its package entry re-exports its parser as
        // a namespace object, which needs the bundler's runtime helpers in every chunk holding it;
        // shared by the product's and the console's lazy chunks, those helpers became a chunk of
        // the first page of their own.
        {
          find: /^socket\.io-client$/,
          replacement: path.join(
            path.dirname(createRequire(import.meta.url).resolve('socket.io-client/package.json')),
            'dist/socket.io.esm.min.js',
          ),
        },
      ],
    },
    // The first page (≤ 100 KiB gzip, README.md): React, react-dom, the router, the store; RTK Query,
    // socket.io-client and every page but home are chunks loaded when needed. The e2e
    // harness builds under vitest's NODE_ENV=test, i.e. with React's development build (~700 kB).
    build: { chunkSizeWarningLimit: 800 },
    server: { host: 'localhost', port: options.port ?? 5173, strictPort: true, proxy },
    preview: {
      host: 'localhost',
      port: options.port ?? 4173,
      strictPort: true,
      proxy,
      headers: {
        'Content-Security-Policy': contentSecurityPolicy(
          runtimeConfig.bffUrl,
          runtimeConfig.consoleKeycloakUrl,
        ),
        'X-Content-Type-Options': 'nosniff',
        'Referrer-Policy': 'same-origin',
      },
    },
  };
}
