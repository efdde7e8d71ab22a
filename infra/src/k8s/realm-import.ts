/**
 * The production overlay's `KeycloakRealmImport`, generated from the one realm file,
 * infra/keycloak/raly-realm.json, with the environment's public URLs: the web client's redirect
 * URIs, web origins and post-logout URIs become the environment's web origin (no localhost), TLS
 * is required for external requests, mail goes to the environment's relay, and every secret is a
 * placeholder the Keycloak Operator fills from a Secret (`spec.placeholders`), never a value.
 *
 * Run `npm run k8s:realm-import -w infra` after changing the realm file or the production
 * overlay's URLs; infra/test/k8s-overlays.test.ts fails while the committed file differs from
 * what this module generates.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { format, resolveConfig } from 'prettier';
import { parse, stringify } from 'yaml';

const repository = path.resolve(import.meta.dirname, '..', '..', '..');
export const realmFile = path.join(repository, 'infra', 'keycloak', 'raly-realm.json');
export const productionOverlay = path.join(repository, 'k8s', 'overlays', 'production');
export const realmImportFile = path.join(productionOverlay, 'keycloak-realm-import.yaml');

/** What of an environment goes into its realm. */
export interface RealmEnvironment {
  /** The web app's public origin, e.g. `https://raly.example.com` (no path, no trailing slash). */
  webUrl: string;
  /** Keycloak's outgoing mail (password-reset e-mails Keycloak sends itself). */
  smtp: { host: string; port: number; from: string };
  /** `metadata.name` of the `Keycloak` resource the realm is imported into. */
  keycloakName: string;
}

/** The parts of a Keycloak RealmRepresentation this module rewrites; the rest passes through. */
type Realm = Record<string, unknown> & {
  clients: (Record<string, unknown> & { clientId: string; attributes?: Record<string, string> })[];
};

/**
 * `${NAME:development default}`, the form in which the realm file gives a
 * confidential client's secret (Keycloak fills NAME from its environment).
 */
const secretWithDefault = /^\$\{([A-Z0-9_]+):[^}]*\}$/;

/** The Secret keys the operator substitutes for `${NAME}` in the realm (`spec.placeholders`). */
const smtpPlaceholders = {
  RALY_KEYCLOAK_SMTP_USER: { secret: { name: 'raly-keycloak-smtp', key: 'username' } },
  RALY_KEYCLOAK_SMTP_PASSWORD: { secret: { name: 'raly-keycloak-smtp', key: 'password' } },
};

/**
 * The confidential clients' secret placeholders of `realm`: each client whose
 * secret is `${NAME:default}` takes NAME from the Secret `raly-secrets`, key
 * NAME (raly-identity's Admin API client and the services' own clients, e.g.
 * KEYCLOAK_BFF_SERVICE_CLIENT_SECRET).
 */
export function clientSecretNames(realm: Realm): string[] {
  return realm.clients.flatMap((client) => {
    const match =
      typeof client.secret === 'string' ? secretWithDefault.exec(client.secret) : undefined;
    return match ? [match[1]!] : [];
  });
}

/** `spec.placeholders` of the import: the clients' secrets and Keycloak's SMTP credentials. */
function placeholdersOf(realm: Realm) {
  return {
    ...Object.fromEntries(
      clientSecretNames(realm).map((name) => [
        name,
        { secret: { name: 'raly-secrets', key: name } },
      ]),
    ),
    ...smtpPlaceholders,
  };
}

/**
 * @param realm the parsed infra/keycloak/raly-realm.json (not modified)
 * @returns the realm for `environment`: raly-web's URLs on the web origin only, raly-console's on
 *   the web origin's `/console` only, `sslRequired`
 *   external, the SMTP relay with STARTTLS and placeholder credentials, every confidential
 *   client's secret as a placeholder without a development default
 * @throws Error when the realm has no raly-web, raly-console or raly-identity client, or webUrl is not an origin
 */
export function realmForEnvironment(realm: Realm, environment: RealmEnvironment): Realm {
  const origin = new URL(environment.webUrl).origin;
  if (origin !== environment.webUrl)
    throw new Error(`webUrl must be an origin, got ${environment.webUrl}`);
  const clientOf = (clientId: string) => {
    const client = realm.clients.find((candidate) => candidate.clientId === clientId);
    if (!client) throw new Error(`the realm has no client ${clientId}`);
    return client;
  };
  const web = clientOf('raly-web');
  const staffConsole = clientOf('raly-console');
  clientOf('raly-identity');
  const clients = realm.clients.map((client) => {
    if (client === web)
      return {
        ...client,
        rootUrl: origin,
        redirectUris: [`${origin}/*`],
        webOrigins: [origin],
        attributes: { ...client.attributes, 'post.logout.redirect.uris': `${origin}/*` },
      };
    if (client === staffConsole)
      return {
        ...client,
        rootUrl: origin,
        redirectUris: [`${origin}/console/*`],
        webOrigins: [origin],
        attributes: {
          ...client.attributes,
          'post.logout.redirect.uris': `${origin}/console/*`,
        },
      };
    const secret = typeof client.secret === 'string' ? secretWithDefault.exec(client.secret) : null;
    if (secret) return { ...client, secret: `\${${secret[1]}}` };
    return client;
  });
  return {
    ...realm,
    sslRequired: 'external',
    smtpServer: {
      ...(realm.smtpServer as Record<string, unknown>),
      host: environment.smtp.host,
      port: String(environment.smtp.port),
      from: environment.smtp.from,
      auth: 'true',
      user: '${RALY_KEYCLOAK_SMTP_USER}',
      password: '${RALY_KEYCLOAK_SMTP_PASSWORD}',
      ssl: 'false',
      starttls: 'true',
    },
    clients,
  };
}

/**
 * @returns the `KeycloakRealmImport` object (k8s.keycloak.org/v2alpha1) of `environment`
 */
export function realmImportFor(realm: Realm, environment: RealmEnvironment) {
  return {
    apiVersion: 'k8s.keycloak.org/v2alpha1',
    kind: 'KeycloakRealmImport',
    metadata: { name: 'raly-realm' },
    spec: {
      keycloakCRName: environment.keycloakName,
      placeholders: placeholdersOf(realm),
      realm: realmForEnvironment(realm, environment),
    },
  };
}

/**
 * Reads the environment from the production overlay: WEB_URL and KEYCLOAK_SMTP_HOST/PORT/FROM of
 * its `raly-config` literals, and the name of its `Keycloak` resource (keycloak.yaml).
 * @throws Error naming a literal the overlay lacks
 */
export function productionRealmEnvironment(): RealmEnvironment {
  const kustomization = parse(
    readFileSync(path.join(productionOverlay, 'kustomization.yaml'), 'utf8'),
  ) as { configMapGenerator: { name: string; literals?: string[] }[] };
  const literals = new Map(
    kustomization.configMapGenerator
      .filter((generator) => generator.name === 'raly-config')
      .flatMap((generator) => generator.literals ?? [])
      .map((literal) => [
        literal.slice(0, literal.indexOf('=')),
        literal.slice(literal.indexOf('=') + 1),
      ]),
  );
  const literal = (name: string) => {
    const value = literals.get(name);
    if (value === undefined) throw new Error(`k8s/overlays/production: raly-config has no ${name}`);
    return value;
  };
  const keycloak = parse(readFileSync(path.join(productionOverlay, 'keycloak.yaml'), 'utf8')) as {
    metadata: { name: string };
  };
  return {
    webUrl: literal('WEB_URL'),
    smtp: {
      host: literal('KEYCLOAK_SMTP_HOST'),
      port: Number(literal('KEYCLOAK_SMTP_PORT')),
      from: literal('KEYCLOAK_SMTP_FROM'),
    },
    keycloakName: keycloak.metadata.name,
  };
}

/** @returns the realm file's RealmRepresentation */
export function readRealm(): Realm {
  return JSON.parse(readFileSync(realmFile, 'utf8')) as Realm;
}

/** Writes k8s/overlays/production/keycloak-realm-import.yaml (formatted by prettier). */
export async function writeRealmImport(): Promise<void> {
  const header = [
    '# GENERATED by infra/src/k8s/realm-import.ts from infra/keycloak/raly-realm.json and the',
    "# production overlay's WEB_URL / KEYCLOAK_SMTP_*: do not edit, run",
    '# `npm run k8s:realm-import -w infra`. The Keycloak Operator imports the realm once (an existing',
    '# realm is never overwritten); secrets are placeholders filled from Secrets (spec.placeholders).',
  ].join('\n');
  const body = stringify(realmImportFor(readRealm(), productionRealmEnvironment()), {
    lineWidth: 0,
  });
  const options = await resolveConfig(realmImportFile);
  const text = await format(`${header}\n${body}`, { ...options, filepath: realmImportFile });
  writeFileSync(realmImportFile, text);
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  await writeRealmImport();
  console.log(`wrote ${path.relative(repository, realmImportFile)}`);
}
