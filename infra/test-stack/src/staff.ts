/**
 * Raly staff in the real Keycloak realm (docs/console.md): the realm's staff
 * part (roles raly-moderator and raly-admin, the public console client
 * raly-console and its sign-in flow) applied to a running Keycloak through
 * the Admin REST API, staff users, and the console's sign-in done as a
 * browser would (authorization code with PKCE S256 on Keycloak's login page,
 * then a TOTP code computed from the account's secret with otplib).
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { generate, ScureBase32Plugin } from 'otplib';
import type { KeycloakTokenAnswer } from '@raly/contracts/bff-api';
import { keycloakAdmin } from '@raly/infra/stack/settings';
import { uniqueToken } from './records';
import type { TestStack } from './stack';

/** The console's public client (standard flow, PKCE S256). */
export const consoleClientId = 'raly-console';
/** The realm roles of staff; raly-admin includes raly-moderator. */
export type StaffRole = 'raly-moderator' | 'raly-admin';

interface RealmRole {
  name: string;
  description?: string;
  composite?: boolean;
  composites?: { realm?: string[] };
}
interface FlowExecution {
  authenticator: string;
  requirement: string;
  priority: number;
}
interface Flow {
  id: string;
  alias: string;
  description: string;
  authenticationExecutions: FlowExecution[];
}
interface ClientRepresentation {
  clientId: string;
  redirectUris?: string[];
  webOrigins?: string[];
  attributes?: Record<string, string>;
  authenticationFlowBindingOverrides?: Record<string, string>;
  [key: string]: unknown;
}
interface RealmFile {
  roles: { realm: RealmRole[] };
  authenticationFlows: Flow[];
  clients: ClientRepresentation[];
}

function realmFile(): RealmFile {
  const path = createRequire(import.meta.url).resolve('@raly/infra/package.json');
  return JSON.parse(
    readFileSync(path.replace(/package\.json$/, 'keycloak/raly-realm.json'), 'utf8'),
  ) as RealmFile;
}

/** An access token of Keycloak's administrator (master realm, admin-cli). */
async function adminToken(stack: TestStack): Promise<string> {
  const response = await fetch(`${stack.keycloakUrl}/realms/master/protocol/openid-connect/token`, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'password',
      client_id: 'admin-cli',
      username: process.env.KEYCLOAK_ADMIN_USERNAME ?? keycloakAdmin.username,
      password: process.env.KEYCLOAK_ADMIN_PASSWORD ?? keycloakAdmin.password,
    }),
  });
  if (!response.ok) throw new Error(`Keycloak admin token: HTTP ${response.status}`);
  return ((await response.json()) as { access_token: string }).access_token;
}

/** Calls the realm's Admin REST API; throws on any status but `allowed` and 2xx. */
function adminApi(stack: TestStack, token: string) {
  const base = `${stack.keycloakUrl}/admin/realms/${stack.realm}`;
  return async (path: string, init: { method?: string; body?: unknown } = {}, allowed = [404]) => {
    const response = await fetch(`${base}${path}`, {
      method: init.method ?? 'GET',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    if (!response.ok && !allowed.includes(response.status))
      throw new Error(
        `${init.method ?? 'GET'} ${path}: HTTP ${response.status} ${await response.text()}`,
      );
    const text = await response.text();
    return { status: response.status, body: text ? (JSON.parse(text) as unknown) : undefined };
  };
}

/** The BFF's own client for calls to services; the console's actions call the brand service with it. */
const serviceClientOfBff = 'raly-bff-service';

/** Adds the realm file's protocol mappers of `clientId` that the running client lacks (by name). */
async function ensureProtocolMappers(
  api: ReturnType<typeof adminApi>,
  realm: RealmFile,
  clientId: string,
): Promise<void> {
  const wanted = realm.clients.find((candidate) => candidate.clientId === clientId);
  const [running] = (await api(`/clients?${new URLSearchParams({ clientId })}`)).body as {
    id: string;
  }[];
  if (!wanted || !running) return;
  const present = (await api(`/clients/${running.id}/protocol-mappers/models`)).body as {
    name: string;
  }[];
  for (const mapper of (wanted.protocolMappers ?? []) as { name: string }[])
    if (!present.some((candidate) => candidate.name === mapper.name))
      await api(`/clients/${running.id}/protocol-mappers/models`, { method: 'POST', body: mapper });
}

/** `${NAME:development default}` of a confidential client's secret in the realm file. */
const secretWithDefault = /^\$\{[A-Z0-9_]+:([^}]*)\}$/;

/**
 * Creates the realm file's service clients (`raly-<app>-service`) the running Keycloak lacks, as
 * the file states them with their development secrets, then adds the BFF service client's
 * audience mappers it lacks: a Keycloak whose realm was imported before a service's client
 * existed issues the BFF tokens for that service once this ran. Existing clients keep their
 * settings.
 */
async function ensureServiceClients(
  api: ReturnType<typeof adminApi>,
  realm: RealmFile,
): Promise<void> {
  for (const client of realm.clients) {
    if (!/^raly-[a-z-]+-service$/.test(client.clientId)) continue;
    const found = (await api(`/clients?${new URLSearchParams({ clientId: client.clientId })}`))
      .body as unknown[];
    if (found.length > 0) continue;
    const secret =
      typeof client.secret === 'string'
        ? (secretWithDefault.exec(client.secret)?.[1] ?? client.secret)
        : undefined;
    await api('/clients', { method: 'POST', body: { ...client, secret } }, [409]);
  }
  await ensureProtocolMappers(api, realm, serviceClientOfBff);
}

/**
 * {@link ensureServiceClients} on the running Keycloak: the realm file's service clients and the
 * BFF service client's audiences (e.g. a test calling a service as the BFF).
 * @throws Error when the Admin REST API refuses a change
 */
export async function ensureRealmServiceClients(stack: TestStack): Promise<void> {
  await ensureServiceClients(adminApi(stack, await adminToken(stack)), realmFile());
}

/**
 * Applies the realm file's staff part to the running Keycloak without restarting it
 * (idempotent: creates what is missing, brings the console client up to date), and the service
 * clients with the BFF service client's audience mappers (its calls to services for the
 * console's actions, {@link ensureServiceClients}).
 * @param options.redirectUris more redirect URIs (and their origins) for raly-console, e.g. a
 *   test's web server; the realm file's stay
 * @throws Error when the Admin REST API refuses a change
 */
export async function ensureStaffRealm(
  stack: TestStack,
  options: { redirectUris?: string[] } = {},
): Promise<void> {
  const realm = realmFile();
  const api = adminApi(stack, await adminToken(stack));

  for (const role of realm.roles.realm) {
    const found = await api(`/roles/${encodeURIComponent(role.name)}`);
    if (found.status === 404)
      await api('/roles', {
        method: 'POST',
        body: { name: role.name, description: role.description },
      });
  }
  for (const role of realm.roles.realm) {
    for (const included of role.composites?.realm ?? []) {
      const member = (await api(`/roles/${encodeURIComponent(included)}`)).body;
      await api(`/roles/${encodeURIComponent(role.name)}/composites`, {
        method: 'POST',
        body: [member],
      });
    }
  }

  const flowIds = new Map<string, string>();
  const flows = (await api('/authentication/flows')).body as { id: string; alias: string }[];
  for (const flow of realm.authenticationFlows) {
    let existing = flows.find((candidate) => candidate.alias === flow.alias);
    if (!existing) {
      await api('/authentication/flows', {
        method: 'POST',
        body: {
          alias: flow.alias,
          description: flow.description,
          providerId: 'basic-flow',
          topLevel: true,
          builtIn: false,
        },
      });
      const alias = encodeURIComponent(flow.alias);
      for (const execution of [...flow.authenticationExecutions].sort(
        (a, b) => a.priority - b.priority,
      ))
        await api(`/authentication/flows/${alias}/executions/execution`, {
          method: 'POST',
          body: { provider: execution.authenticator },
        });
      const created = (await api(`/authentication/flows/${alias}/executions`)).body as {
        id: string;
        providerId: string;
      }[];
      for (const execution of created) {
        const wanted = flow.authenticationExecutions.find(
          (candidate) => candidate.authenticator === execution.providerId,
        );
        await api(`/authentication/flows/${alias}/executions`, {
          method: 'PUT',
          body: { ...execution, requirement: wanted?.requirement ?? 'DISABLED' },
        });
      }
      existing = (
        (await api('/authentication/flows')).body as { id: string; alias: string }[]
      ).find((candidate) => candidate.alias === flow.alias);
    }
    flowIds.set(flow.id, existing!.id);
  }

  await ensureServiceClients(api, realm);

  const client = realm.clients.find((candidate) => candidate.clientId === consoleClientId)!;
  const extra = options.redirectUris ?? [];
  const wanted: ClientRepresentation = {
    ...client,
    redirectUris: [...new Set([...(client.redirectUris ?? []), ...extra])],
    webOrigins: [
      ...new Set([...(client.webOrigins ?? []), ...extra.map((uri) => new URL(uri).origin)]),
    ],
    attributes: {
      ...client.attributes,
      'post.logout.redirect.uris': [
        ...new Set([
          ...(client.attributes?.['post.logout.redirect.uris']?.split('##') ?? []),
          ...extra,
        ]),
      ].join('##'),
    },
    authenticationFlowBindingOverrides: Object.fromEntries(
      Object.entries(client.authenticationFlowBindingOverrides ?? {}).map(([binding, id]) => [
        binding,
        flowIds.get(id) ?? id,
      ]),
    ),
  };
  const existing = (
    (await api(`/clients?${new URLSearchParams({ clientId: consoleClientId })}`)).body as {
      id: string;
      redirectUris: string[];
    }[]
  )[0];
  if (!existing) {
    await api('/clients', { method: 'POST', body: wanted });
    return;
  }
  // A PUT leaves the client's protocol mappers as they are (those are only created with it).
  await api(`/clients/${existing.id}`, {
    method: 'PUT',
    body: {
      ...wanted,
      protocolMappers: undefined,
      id: existing.id,
      redirectUris: [...new Set([...existing.redirectUris, ...wanted.redirectUris!])],
    },
  });
}

/** A staff account: its TOTP secret (Base32) once the first console sign-in set it up. */
export interface StaffUser {
  id: string;
  email: string;
  password: string;
  role: StaffRole;
  totpSecret?: string;
  /** The last TOTP code Keycloak accepted (a code is not accepted twice). */
  lastCode?: string;
}

/**
 * Creates a staff user with `role` who must set up TOTP at the first sign-in (required action
 * CONFIGURE_TOTP); `role` undefined makes a realm user without a staff role.
 * @returns the user; call {@link deleteStaffUser} at clean-up
 */
export async function createStaffUser(
  stack: TestStack,
  role: StaffRole | undefined,
): Promise<StaffUser> {
  const api = adminApi(stack, await adminToken(stack));
  const token = uniqueToken();
  const email = `staff.${token}@raly.test`;
  const password = `pw-${token}`;
  await api('/users', {
    method: 'POST',
    body: {
      username: email,
      email,
      emailVerified: true,
      enabled: true,
      firstName: 'Staff',
      lastName: token,
      requiredActions: ['CONFIGURE_TOTP'],
      credentials: [{ type: 'password', value: password, temporary: false }],
    },
  });
  const [user] = (await api(`/users?${new URLSearchParams({ email, exact: 'true' })}`)).body as {
    id: string;
  }[];
  if (role) {
    const roleRepresentation = (await api(`/roles/${role}`)).body;
    await api(`/users/${user!.id}/role-mappings/realm`, {
      method: 'POST',
      body: [roleRepresentation],
    });
  }
  return { id: user!.id, email, password, role: role ?? 'raly-moderator', totpSecret: undefined };
}

/** Deletes a staff user; a missing one is fine. */
export async function deleteStaffUser(stack: TestStack, user: { id: string }): Promise<void> {
  const api = adminApi(stack, await adminToken(stack));
  await api(`/users/${user.id}`, { method: 'DELETE' });
}

const base32 = new ScureBase32Plugin();

/** A TOTP code of `user` that Keycloak has not accepted yet (waits for the next period if needed). */
export async function nextTotpCode(user: StaffUser): Promise<string> {
  for (;;) {
    const code = await generate({ secret: user.totpSecret! });
    if (code !== user.lastCode) return code;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

/** Cookie jar of one browser-like sign-in. */
function cookieJar() {
  const cookies = new Map<string, string>();
  return {
    header: () => [...cookies].map(([name, value]) => `${name}=${value}`).join('; '),
    keep(response: Response) {
      for (const line of response.headers.getSetCookie()) {
        const [pair] = line.split(';');
        const at = pair!.indexOf('=');
        cookies.set(pair!.slice(0, at).trim(), pair!.slice(at + 1).trim());
      }
    },
  };
}

const htmlEntities: Record<string, string> = { '&amp;': '&', '&quot;': '"', '&#39;': "'" };
const unescapeHtml = (text: string) => text.replace(/&amp;|&quot;|&#39;/g, (m) => htmlEntities[m]!);

function formOf(
  html: string,
  id: string,
): { action: string; hidden: Record<string, string> } | undefined {
  const form = new RegExp(`<form[^>]*\\bid="${id}"[^>]*>[\\s\\S]*?</form>`).exec(html);
  const action = form && /\baction="([^"]+)"/.exec(form[0])?.[1];
  if (!form || !action) return undefined;
  const hidden: Record<string, string> = {};
  for (const input of form[0].matchAll(/<input[^>]*type="hidden"[^>]*>/g)) {
    const name = /name="([^"]+)"/.exec(input[0])?.[1];
    const value = /value="([^"]*)"/.exec(input[0])?.[1];
    if (name) hidden[name] = unescapeHtml(value ?? '');
  }
  return { action: unescapeHtml(action), hidden };
}

/**
 * Signs `user` in to the console client as the browser app does: authorization request with
 * PKCE (S256), password on Keycloak's login page, TOTP (set up on the first sign-in, the secret
 * kept on `user`), then the code exchanged for tokens.
 * @param redirectUri one of raly-console's redirect URIs
 * @returns the token set Keycloak answers
 * @throws Error when a page is not the one expected (wrong password, no TOTP step...)
 */
export async function consoleSignIn(
  stack: TestStack,
  user: StaffUser,
  redirectUri = 'http://localhost:5173/console/',
): Promise<KeycloakTokenAnswer> {
  const realmUrl = `${stack.keycloakPublicUrl}/realms/${stack.realm}/protocol/openid-connect`;
  const verifier = randomBytes(32).toString('base64url');
  const state = uniqueToken();
  const jar = cookieJar();
  const visit = async (
    url: string,
    body?: Record<string, string>,
  ): Promise<{ location: string | null; html: string }> => {
    const response = await fetch(url, {
      method: body ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        cookie: jar.header(),
        ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: body ? new URLSearchParams(body) : undefined,
    });
    jar.keep(response);
    const location = response.headers.get('location');
    // Keycloak's own redirects (e.g. to a required action) are followed; the client's is the end.
    if (location?.startsWith(stack.keycloakPublicUrl)) return visit(location);
    return { location, html: await response.text() };
  };

  let page = await visit(
    `${realmUrl}/auth?${new URLSearchParams({
      client_id: consoleClientId,
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: 'openid',
      state,
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
    })}`,
  );
  const login = formOf(page.html, 'kc-form-login');
  if (!login) throw new Error('Keycloak did not show its login page');
  page = await visit(login.action, {
    ...login.hidden,
    username: user.email,
    password: user.password,
  });
  for (let step = 0; step < 3 && !page.location; step++) {
    const setup = formOf(page.html, 'kc-totp-settings-form');
    const otp = formOf(page.html, 'kc-otp-login-form');
    if (setup) {
      user.totpSecret = base32.encode(new TextEncoder().encode(setup.hidden.totpSecret!));
      const code = await nextTotpCode(user);
      page = await visit(setup.action, { ...setup.hidden, totp: code, userLabel: 'test' });
      user.lastCode = code;
    } else if (otp && user.totpSecret) {
      const code = await nextTotpCode(user);
      page = await visit(otp.action, { ...otp.hidden, otp: code });
      user.lastCode = code;
    } else throw new Error(`unexpected Keycloak page: ${page.html.slice(0, 300)}`);
  }
  const code = page.location ? new URL(page.location).searchParams.get('code') : null;
  if (!code) throw new Error(`no authorization code (redirect ${page.location})`);
  const response = await fetch(
    `${stack.keycloakUrl}/realms/${stack.realm}/protocol/openid-connect/token`,
    {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        client_id: consoleClientId,
        code,
        redirect_uri: redirectUri,
        code_verifier: verifier,
      }),
    },
  );
  if (!response.ok)
    throw new Error(`code exchange: HTTP ${response.status} ${await response.text()}`);
  return (await response.json()) as KeycloakTokenAnswer;
}
