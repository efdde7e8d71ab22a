/**
 * The shape of `/config.json`, checked with zod's tree-shakable
 * `zod/mini`. This file imports zod and nothing else: the production build
 * bundles it on its own with its own copy of the few zod parts it uses
 * (web/vite.shared.ts `standaloneModulePlugin`, ~6 KiB gzip), because
 * sharing zod's modules with the forms' schemas (classic zod, lazily loaded
 * pages) would put all of zod's core (~15 KiB) on the first page.
 */
import * as z from 'zod/mini';

/** Which backend the app talks to; `staging` makes the app log a notice at start (spec §1). */
export const backendEnvironments = ['local', 'staging', 'production'] as const;
export type BackendEnvironment = (typeof backendEnvironments)[number];

/**
 * An http(s) origin (`scheme://host[:port]`, ASCII host name or [IPv6], a trailing '/' allowed):
 * the live socket connects to it with socket.io, which would read a path as a namespace, and the
 * web server writes it as is into the CSP's connect-src (web/nginx.conf), where a path would
 * narrow the source and a quote or ';' would change the policy.
 */
const httpOrigin = z
  .string()
  .check(
    z.refine(
      (value) =>
        /^https?:\/\/(\[[\da-f:.]+\]|[a-z\d.-]+)(:\d{1,5})?\/?$/i.test(value) &&
        URL.canParse(value),
      'expected an http(s) origin (scheme://host[:port], no path)',
    ),
  );

/**
 * - `bffUrl`: the BFF's origin for /api and /live; '' (default) is this origin, where the
 *   ingress routes them (another origin also goes into the CSP's connect-src and needs the BFF's
 *   CORS);
 * - `backendEnvironment`: local | staging | production (default production);
 * - `consoleKeycloakUrl`, `consoleRealm`, `consoleClientId`: where the staff console
 *   (`/console`, docs/console.md) signs staff in: Keycloak's origin (the web server also puts it
 *   into the CSP's connect-src, for the console's token requests), the realm and the console's
 *   public client; '' or missing leaves the console without sign-in. The product never uses them.
 *
 * Other fields are ignored, not refused: the `keycloakUrl`, `keycloakRealm` and `keycloakClientId`
 * an older web server still writes (before the SPA stopped calling Keycloak, docs/adr/0009) must not
 * stop the app, e.g. while a rolling deploy mixes old and new web pods.
 */
export const runtimeConfigSchema = z.object({
  bffUrl: z.optional(z.union([z.literal(''), httpOrigin])),
  backendEnvironment: z.optional(z.enum(backendEnvironments)),
  consoleKeycloakUrl: z.optional(z.union([z.literal(''), httpOrigin])),
  consoleRealm: z.optional(z.string()),
  consoleClientId: z.optional(z.string()),
});
export type RuntimeConfig = z.infer<typeof runtimeConfigSchema>;

/**
 * @param raw the parsed JSON of `/config.json`
 * @returns the checked values, or one line per missing or malformed field ('<field>: <why>')
 */
export function checkRuntimeConfig(
  raw: unknown,
): { ok: true; config: RuntimeConfig } | { ok: false; problems: string[] } {
  const result = z.safeParse(runtimeConfigSchema, raw);
  if (result.success) return { ok: true, config: result.data };
  return {
    ok: false,
    problems: result.error.issues.map(
      (issue) => `${issue.path.join('.') || '(the file)'}: ${issue.message}`,
    ),
  };
}
