import { test } from 'vitest';
import assert from 'node:assert/strict';
import {
  ConfigError,
  loadRuntimeConfig,
  parseRuntimeConfig,
  RUNTIME_CONFIG_PATH,
} from '../../src/config/env.ts';
import { logStagingNotice, STAGING_NOTICE } from '../../src/lib/staging-notice.ts';

const valid = { bffUrl: '', backendEnvironment: 'local' };

/** The ConfigError `run` throws (fails the test when it throws nothing or something else). */
async function configErrorOf(run: () => unknown): Promise<ConfigError> {
  try {
    await run();
  } catch (error) {
    assert.ok(error instanceof ConfigError, `expected a ConfigError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected a ConfigError, nothing was thrown');
}

test('when /config.json is empty, then the BFF is this origin and the backend production', () => {
  const env = parseRuntimeConfig({});

  assert.equal(env.bffUrl, '');
  assert.equal(env.apiBaseUrl, '/api');
  assert.equal(env.backend, 'production');
});

test('when /config.json names the BFF on its own origin, then the API and the live socket go there, the trailing slash dropped', () => {
  const env = parseRuntimeConfig({ ...valid, bffUrl: 'https://bff.example.com:8443/' });

  assert.equal(env.bffUrl, 'https://bff.example.com:8443');
  assert.equal(env.apiBaseUrl, 'https://bff.example.com:8443/api');
});

test("when an older server's /config.json still carries the Keycloak fields, then they are ignored, even malformed, and the configuration has no Keycloak in it", () => {
  const env = parseRuntimeConfig({
    keycloakUrl: 'ftp://not-checked-any-more',
    keycloakRealm: '',
    keycloakClientId: 'raly-web',
    ...valid,
  });

  assert.deepEqual(Object.keys(env).sort(), [
    'apiBaseUrl',
    'backend',
    'bffUrl',
    'console',
    'livePath',
  ]);
  assert.equal(env.backend, 'local');
  assert.equal(env.console, null);
  assert.doesNotMatch(JSON.stringify(env), /keycloak/i);
});

test("when /config.json names the console's Keycloak, realm and client, then the console signs in there (slash dropped); any one missing or empty leaves it without sign-in", () => {
  const console = {
    consoleKeycloakUrl: 'https://auth.example.com/',
    consoleRealm: 'raly',
    consoleClientId: 'raly-console',
  };

  const configured = parseRuntimeConfig({ ...valid, ...console });
  const partial = [
    { ...console, consoleRealm: undefined },
    { ...console, consoleClientId: '' },
    { ...console, consoleKeycloakUrl: '' },
  ].map((fields) => parseRuntimeConfig({ ...valid, ...fields }).console);

  assert.deepEqual(configured.console, {
    url: 'https://auth.example.com',
    realm: 'raly',
    clientId: 'raly-console',
  });
  assert.deepEqual(partial, [null, null, null]);
});

test("when the console's Keycloak is not a bare http(s) origin, then start fails naming consoleKeycloakUrl", async () => {
  for (const consoleKeycloakUrl of ['https://auth.example.com/realms', "https://a.example';x"]) {
    const error = await configErrorOf(() => parseRuntimeConfig({ ...valid, consoleKeycloakUrl }));
    assert.deepEqual(
      error.problems.map((problem) => problem.split(':')[0]),
      ['consoleKeycloakUrl'],
    );
  }
});

test('when backendEnvironment is staging, then the config says the backend is staging', () => {
  assert.equal(parseRuntimeConfig({ ...valid, backendEnvironment: 'staging' }).backend, 'staging');
});

test('when values are malformed, then start fails with a ConfigError naming each field', async () => {
  const error = await configErrorOf(() =>
    parseRuntimeConfig({ bffUrl: 'ftp://bff.example', backendEnvironment: 'stagign' }),
  );

  const fields = error.problems.map((problem) => problem.split(':')[0]);
  assert.deepEqual(fields.sort(), ['backendEnvironment', 'bffUrl']);
  assert.match(error.message, /bffUrl: expected an http\(s\) origin/);
});

test('when bffUrl is not a bare origin (a path, a query, credentials, a quote or a semicolon), then start fails naming bffUrl', async () => {
  for (const bffUrl of [
    'https://example.com/bff',
    'https://example.com?x=1',
    'https://user:pass@example.com',
    'https://example.com";x',
    'https://example.com; script-src *',
    'example.com',
  ]) {
    const error = await configErrorOf(() => parseRuntimeConfig({ bffUrl }));
    assert.deepEqual(
      error.problems.map((problem) => problem.split(':')[0]),
      ['bffUrl'],
      bffUrl,
    );
  }
});

test('when /config.json is not an object, then start fails with a ConfigError', async () => {
  const error = await configErrorOf(() => parseRuntimeConfig(['bffUrl']));

  assert.equal(error.problems.length, 1);
});

test('when /config.json is missing or not JSON, then loading it fails with a ConfigError saying so', async () => {
  const missing = await configErrorOf(() =>
    loadRuntimeConfig(async () => new Response('not found', { status: 404 })),
  );
  const garbled = await configErrorOf(() =>
    loadRuntimeConfig(async () => new Response('<html>', { status: 200 })),
  );

  assert.deepEqual(missing.problems, [`${RUNTIME_CONFIG_PATH} answered 404`]);
  assert.deepEqual(garbled.problems, [`${RUNTIME_CONFIG_PATH} is not JSON`]);
});

test('when /config.json is valid, then loading it installs it', async () => {
  let asked = '';
  const env = await loadRuntimeConfig(async (input) => {
    asked = String(input);
    return Response.json({ ...valid, backendEnvironment: 'staging' });
  });

  assert.equal(asked, RUNTIME_CONFIG_PATH);
  assert.equal(env.backend, 'staging');
});

test('when the backend is staging, then the staging-mode notice is logged once', () => {
  const logged: string[] = [];

  const didLog = logStagingNotice('staging', (message) => logged.push(message));

  assert.equal(didLog, true);
  assert.deepEqual(logged, [STAGING_NOTICE]);
});

test('when the backend is local or production, then no staging notice is logged', () => {
  const logged: string[] = [];

  logStagingNotice('local', (message) => logged.push(message));
  logStagingNotice('production', (message) => logged.push(message));

  assert.deepEqual(logged, []);
});
