/**
 * The one Vite configuration of the web app, as a function so that the dev
 * server (vite.config.ts) and the end-to-end harness (test/e2e) build it the
 * same way and differ only in where the BFF lives.
 */
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import type { Plugin, ProxyOptions, UserConfig } from 'vite';

export interface WebConfigOptions {
  /** Base URL of the BFF that /api and /live are proxied to, e.g. http://127.0.0.1:4000. */
  bffUrl: string;
  /** Keycloak origin the browser talks to (refresh, logout); goes into the CSP connect-src. */
  keycloakUrl: string;
  /** Port of the dev/preview server; 0 lets the OS choose. */
  port?: number;
}

/**
 * Content-Security-Policy of the built app: scripts only from our own origin
 * (no inline script, no eval), network only to our origin (API, socket) and
 * Keycloak, no framing. See docs/adr/0002-browser-session.md.
 */
export function contentSecurityPolicy(keycloakUrl: string): string {
  const keycloakOrigin = new URL(keycloakUrl).origin;
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https: http:",
    `connect-src 'self' ws: wss: ${keycloakOrigin}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Adds the CSP as a meta tag to the built index.html (dev keeps Vite's inline HMR preamble). */
function cspMetaPlugin(keycloakUrl: string): Plugin {
  return {
    name: 'raly-csp-meta',
    apply: 'build',
    transformIndexHtml(html) {
      // frame-ancestors is ignored in a meta tag; the preview/production server sends it as a header.
      const policy = contentSecurityPolicy(keycloakUrl).replace(/; frame-ancestors 'none'/, '');
      return html.replace(
        '<meta charset="UTF-8" />',
        `<meta charset="UTF-8" />\n    <meta http-equiv="Content-Security-Policy" content="${policy}" />`,
      );
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
 * @param options where the BFF and Keycloak are, and the port
 * @returns a Vite config: React + Tailwind, server on host localhost with the
 *   BFF proxy, preview with the same proxy and the security headers
 */
export function webConfig(options: WebConfigOptions): UserConfig {
  const proxy = proxyTable(options.bffUrl);
  return {
    root: import.meta.dirname,
    plugins: [react(), tailwindcss(), cspMetaPlugin(options.keycloakUrl)],
    resolve: { alias: { '@': `${import.meta.dirname}/src` } },
    // The first page is React, react-dom, the router and Redux (~92 KiB gzip, issue 10); RTK Query,
    // keycloak-js, socket.io-client and every page but home are chunks loaded when needed.
    build: { chunkSizeWarningLimit: 300 },
    server: { host: 'localhost', port: options.port ?? 5173, strictPort: true, proxy },
    preview: {
      host: 'localhost',
      port: options.port ?? 4173,
      strictPort: true,
      proxy,
      headers: {
        'Content-Security-Policy': contentSecurityPolicy(options.keycloakUrl),
        'X-Content-Type-Options': 'nosniff',
        'Referrer-Policy': 'same-origin',
      },
    },
  };
}
