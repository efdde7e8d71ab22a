/**
 * The shape of `/config.json` (issue 12), checked with zod's tree-shakable
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

const httpUrl = z
  .string()
  .check(
    z.refine(
      (value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol),
      'expected an http(s) URL',
    ),
  );
const name = z.string().check(z.minLength(1, 'expected a non-empty name'));

/**
 * - `keycloakUrl`: Keycloak's public origin as the browser reaches it (KEYCLOAK_PUBLIC_URL);
 * - `keycloakRealm`, `keycloakClientId`: the realm and the SPA's public client;
 * - `bffUrl`: the BFF's base URL for /api and /live; '' (default) is this origin, where the
 *   ingress routes them (another origin also needs the CSP's connect-src and the BFF's CORS);
 * - `backendEnvironment`: local | staging | production (default production).
 */
export const runtimeConfigSchema = z.object({
  keycloakUrl: httpUrl,
  keycloakRealm: name,
  keycloakClientId: name,
  bffUrl: z.optional(z.union([z.literal(''), httpUrl])),
  backendEnvironment: z.optional(z.enum(backendEnvironments)),
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
