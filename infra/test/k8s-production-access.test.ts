/**
 * The production overlay's sign-in and routes (host names, the realm import, Gateway API
 * routes), its secrets (ExternalSecrets, realm clients and their Secret keys, NetworkPolicies to
 * Keycloak), production mode and monitoring (Prometheus scrapes and alerts), as `kubectl
 * kustomize` builds them.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { serviceClientIds } from '@raly/contracts/internal';
import { describe, test } from 'vitest';
import { parse } from 'yaml';
import {
  productionRealmEnvironment,
  readRealm,
  realmImportFile,
  realmImportFor,
} from '../src/k8s/realm-import';
import { ofKind, repository } from './support/kustomize';
import {
  built,
  nodeApps,
  secretSources,
  realmClientsOf,
  secretReferenceOf,
  configOf,
} from './support/overlays';

describe('k8s/overlays/production: sign-in, routes, secrets and monitoring', () => {
  const objects = built.production;
  const config = configOf(objects);
  const routes = ofKind(objects, 'HTTPRoute');
  const services = ofKind(objects, 'Service');

  test('when the browser uses the public host names, then the routes, the configuration, the Keycloak resource and the realm agree on them', () => {
    const web = new URL(config.WEB_URL!);
    const keycloakUrl = new URL(config.KEYCLOAK_PUBLIC_URL!);
    assert.equal(web.protocol, 'https:');
    assert.equal(keycloakUrl.protocol, 'https:');
    assert.equal(config.CORS_ORIGIN, web.origin);
    assert.equal(config.MEDIA_PUBLIC_URL, web.origin);
    const hostsOf = (name: string) =>
      routes.find((route) => route.metadata.name === name)?.spec.hostnames;
    assert.deepEqual(hostsOf('raly'), [web.hostname]);
    assert.deepEqual(hostsOf('raly-live'), [web.hostname]);
    assert.deepEqual(hostsOf('keycloak'), [keycloakUrl.hostname]);
    const [keycloak] = ofKind(objects, 'Keycloak');
    assert.equal(keycloak?.spec.hostname.hostname, keycloakUrl.origin);
    const [realmImport] = ofKind(objects, 'KeycloakRealmImport');
    assert.equal(realmImport?.spec.keycloakCRName, keycloak.metadata.name);
    const client = (
      realmImport.spec.realm.clients as {
        clientId: string;
        redirectUris: string[];
        webOrigins: string[];
      }[]
    ).find((candidate) => candidate.clientId === 'raly-web');
    assert.deepEqual(client?.redirectUris, [`${web.origin}/*`]);
    assert.deepEqual(client.webOrigins, [web.origin]);
    assert.equal(
      config.KEYCLOAK_URL,
      `http://${keycloak.metadata.name}-service:${keycloak.spec.http.httpPort}`,
    );
  });

  test('when the realm import is read, then it is what infra/src/k8s/realm-import.ts generates from infra/keycloak/raly-realm.json (run npm run k8s:realm-import -w infra)', () => {
    const committed = parse(readFileSync(realmImportFile, 'utf8'));
    assert.deepEqual(committed, realmImportFor(readRealm(), productionRealmEnvironment()));
    const realm = JSON.stringify(committed.spec.realm);
    assert.doesNotMatch(realm, /localhost|127\.0\.0\.1/, 'no local URL');
    assert.doesNotMatch(realm, /\$\{[A-Z_]+:[^}]*\}/, 'no placeholder with a development default');
    for (const name of realm.match(/\$\{([A-Z_]+)\}/g) ?? [])
      assert.ok(
        name.slice(2, -1) in committed.spec.placeholders,
        `${name} has a placeholder Secret`,
      );
  });

  test('when a request comes in, then / goes to web, /api and /live to the BFF, /files to media, and Keycloak serves only /realms/ and /resources/ publicly', () => {
    const table = new Map<string, string>();
    for (const route of routes)
      for (const rule of route.spec.rules as {
        matches: { path: { value: string } }[];
        backendRefs: { name: string; port: number }[];
      }[])
        for (const match of rule.matches) {
          const [backend] = rule.backendRefs;
          const known =
            backend!.name === 'raly-keycloak-service' ||
            services.some(
              (service) =>
                service.metadata.name === backend!.name &&
                service.spec.ports.some((port: { port: number }) => port.port === backend!.port),
            );
          assert.ok(
            known,
            `${route.metadata.name} ${match.path.value}: ${backend!.name}:${backend!.port}`,
          );
          table.set(`${route.spec.hostnames[0]}${match.path.value}`, backend!.name);
        }
    const web = new URL(config.WEB_URL!).hostname;
    const auth = new URL(config.KEYCLOAK_PUBLIC_URL!).hostname;
    assert.deepEqual(Object.fromEntries(table), {
      [`${web}/`]: 'web',
      [`${web}/api`]: 'bff',
      [`${web}/live`]: 'bff',
      [`${web}/files`]: 'media',
      [`${auth}/realms/`]: 'raly-keycloak-service',
      [`${auth}/resources/`]: 'raly-keycloak-service',
    });
  });

  test('when a secret is needed, then an ExternalSecret of the SecretStore brings it (or the operator writes it)', () => {
    const stores = ofKind(objects, 'SecretStore').map((store) => store.metadata.name);
    const externals = ofKind(objects, 'ExternalSecret');
    assert.ok(externals.length > 0);
    for (const external of externals) {
      assert.equal(external.spec.secretStoreRef.kind, 'SecretStore');
      assert.ok(stores.includes(external.spec.secretStoreRef.name), external.metadata.name);
    }
    const sources = secretSources(objects);
    const referenced = [
      ...ofKind(objects, 'KafkaUser').map(
        (user) => user.spec.authentication.password.valueFrom.secretKeyRef,
      ),
      ...ofKind(objects, 'Keycloak').flatMap((keycloak) => [
        keycloak.spec.db.usernameSecret,
        keycloak.spec.db.passwordSecret,
      ]),
      ...ofKind(objects, 'Keycloak').flatMap((keycloak) => [
        { name: keycloak.spec.bootstrapAdmin.user.secret, key: 'username' },
        { name: keycloak.spec.bootstrapAdmin.user.secret, key: 'password' },
      ]),
      ...ofKind(objects, 'KeycloakRealmImport').flatMap((realmImport) =>
        Object.values(
          realmImport.spec.placeholders as Record<
            string,
            { secret: { name: string; key: string } }
          >,
        ).map(({ secret }) => secret),
      ),
      ...ofKind(objects, 'ObjectStore').flatMap(
        (store) =>
          Object.values(store.spec.configuration.s3Credentials) as { name: string; key: string }[],
      ),
    ];
    for (const { name, key } of referenced)
      assert.ok(sources.get(name)?.has(key), `${name}.${key}`);
  });

  test("when a service calls another, then it authenticates as its own realm client: the Deployment's client secret is the Secret key the realm import fills that client from, and the client's audience names exactly the services it calls", () => {
    const { clients, placeholders } = realmClientsOf(objects);
    // Who calls whom (the data-access clients of services/*/src and bff/src).
    const calls: Record<string, { client: string; calls: string[] }> = {
      // brand: the console's verification route (PUT /brands/:id/verification); moderation: the
      // console's audit log (GET /audit-entries).
      bff: {
        client: serviceClientIds.bff,
        calls: [serviceClientIds.identity, serviceClientIds.brand, serviceClientIds.moderation],
      },
      // identity-profile: a digest's address, fetched at send time (GET /contacts/:userId).
      notifications: { client: serviceClientIds.notifications, calls: [serviceClientIds.identity] },
      'identity-profile': { client: serviceClientIds.identity, calls: [serviceClientIds.brand] },
      brand: { client: serviceClientIds.brand, calls: [serviceClientIds.identity] },
      media: { client: serviceClientIds.media, calls: [serviceClientIds.brand] },
    };
    for (const [app, { client: clientId, calls: callees }] of Object.entries(calls)) {
      const client = clients.find((candidate) => candidate.clientId === clientId);
      assert.ok(client, `realm client ${clientId}`);
      assert.equal(client.serviceAccountsEnabled, true, `${clientId} has a service account`);
      assert.equal(client.directAccessGrantsEnabled, false, `${clientId} signs no user in`);
      const audiences = (client.protocolMappers ?? [])
        .filter((mapper) => mapper.protocolMapper === 'oidc-audience-mapper')
        .map((mapper) => mapper.config['included.client.audience']);
      assert.deepEqual(audiences, callees, `${clientId} may call exactly ${callees.join(', ')}`);
      const placeholder = /^\$\{([A-Z_]+)\}$/.exec(client.secret ?? '')?.[1];
      assert.ok(placeholder, `${clientId}'s secret is a placeholder`);
      assert.deepEqual(
        secretReferenceOf(objects, app, 'KEYCLOAK_SERVICE_CLIENT_SECRET'),
        placeholders[placeholder]!.secret,
        `${app}: KEYCLOAK_SERVICE_CLIENT_SECRET is the secret of ${clientId}`,
      );
    }
  });

  test("when a user signs in, then only the BFF's confidential sign-in client may use the password grant: its secret is the Secret key the realm import fills it from, its tokens are for raly-bff, and the public web client has direct access grants off (docs/adr/0009)", () => {
    const { clients, placeholders } = realmClientsOf(objects);
    const login = clients.find((client) => client.clientId === 'raly-bff-login');
    assert.ok(login, 'realm client raly-bff-login');
    assert.equal(login.publicClient, false, 'confidential');
    assert.equal(login.standardFlowEnabled, false, 'no browser flow');
    assert.equal(login.serviceAccountsEnabled, false, 'no service account: its tokens are users');
    const audiences = (login.protocolMappers ?? [])
      .filter((mapper) => mapper.protocolMapper === 'oidc-audience-mapper')
      .map((mapper) => mapper.config['included.client.audience']);
    assert.deepEqual(audiences, ['raly-bff']);
    const placeholder = /^\$\{([A-Z_]+)\}$/.exec(login.secret ?? '')?.[1];
    assert.ok(placeholder, "raly-bff-login's secret is a placeholder");
    assert.deepEqual(
      secretReferenceOf(objects, 'bff', 'KEYCLOAK_LOGIN_CLIENT_SECRET'),
      placeholders[placeholder]!.secret,
      'bff: KEYCLOAK_LOGIN_CLIENT_SECRET is the secret of raly-bff-login',
    );
    const passwordGrants = clients
      .filter((client) => client.directAccessGrantsEnabled === true)
      .map((client) => client.clientId);
    assert.deepEqual(passwordGrants, ['raly-bff-login'], 'no other client takes passwords');
  });

  test('when a service fetches client-credentials tokens, then NetworkPolicies let it reach Keycloak on 8080 and Keycloak admit it', () => {
    const policies = ofKind(objects, 'NetworkPolicy');
    type Selector = {
      matchLabels?: Record<string, string>;
      matchExpressions?: { key: string; operator: string; values: string[] }[];
    };
    const selectsApp = (selector: Selector | undefined, app: string) =>
      !!selector &&
      (selector.matchLabels?.app === app ||
        (selector.matchExpressions ?? []).some(
          (expression) =>
            expression.key === 'app' &&
            expression.operator === 'In' &&
            expression.values.includes(app),
        ));
    type Rule = {
      to?: { podSelector?: Selector }[];
      from?: { podSelector?: Selector }[];
      ports?: { port: number }[];
    };
    for (const app of ['bff', 'identity-profile', 'brand', 'media']) {
      const egress = policies.some(
        (policy) =>
          selectsApp(policy.spec.podSelector, app) &&
          ((policy.spec.egress ?? []) as Rule[]).some(
            (rule) =>
              (rule.to ?? []).some((peer) => selectsApp(peer.podSelector, 'keycloak')) &&
              (rule.ports ?? []).some((port) => port.port === 8080),
          ),
      );
      assert.ok(egress, `${app} → keycloak:8080`);
      const ingress = policies.some(
        (policy) =>
          selectsApp(policy.spec.podSelector, 'keycloak') &&
          ((policy.spec.ingress ?? []) as Rule[]).some(
            (rule) =>
              (rule.from ?? []).some((peer) => selectsApp(peer.podSelector, app)) &&
              (rule.ports ?? []).some((port) => port.port === 8080),
          ),
      );
      assert.ok(ingress, `keycloak admits ${app} on 8080`);
    }
  });

  test('when the apps start, then they run in production mode (NODE_ENV=production: no development secret accepted)', () => {
    assert.equal(config.NODE_ENV, 'production');
    assert.equal(configOf(built.dev).NODE_ENV, 'development');
  });

  test('when Prometheus reads the overlay, then it scrapes every Node app and alerts on consumer lag, dead letters, outbox age, 5xx rate, sockets and event-loop lag with the metric names docs/operations.md lists', () => {
    for (const app of nodeApps) {
      const monitor = ofKind(objects, 'ServiceMonitor').find(
        (object) => object.metadata.name === app,
      );
      assert.deepEqual(monitor?.spec.selector.matchLabels, { app }, app);
      assert.equal(monitor.spec.endpoints[0].path, '/metrics');
    }
    const [rule] = ofKind(objects, 'PrometheusRule');
    const alerts = (rule?.spec.groups as { rules: { alert: string; expr: string }[] }[]).flatMap(
      (group) => group.rules,
    );
    assert.deepEqual(alerts.map((alert) => alert.alert).sort(), [
      'RalyBffEventLoopLag',
      'RalyBffSocketsHigh',
      'RalyConsumerLagHigh',
      'RalyDeadLetters',
      'RalyHttp5xxRate',
      'RalyKafkaOfflinePartitions',
      'RalyKafkaUnderMinIsr',
      'RalyKafkaUnderReplicated',
      'RalyOutboxStale',
    ]);
    const docs = readFileSync(path.join(repository, 'docs', 'operations.md'), 'utf8');
    const metricNames = alerts.flatMap(
      (alert) => alert.expr.match(/\b[a-z][a-z0-9_]*(?=\{)/g) ?? [],
    );
    assert.ok(metricNames.length >= 6);
    for (const name of metricNames)
      assert.ok(docs.includes(`\`${name}\``), `docs/operations.md lists ${name}`);
  });
});
