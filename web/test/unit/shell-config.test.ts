import { test } from 'vitest';
import assert from 'node:assert/strict';
import {
  ConfigError,
  loadRuntimeConfig,
  parseRuntimeConfig,
  RUNTIME_CONFIG_PATH,
} from '../../src/config/env.ts';
import { logStagingNotice, STAGING_NOTICE } from '../../src/lib/staging-notice.ts';

const valid = {
  keycloakUrl: 'https://auth.example.com',
  keycloakRealm: 'raly',
  keycloakClientId: 'raly-web',
};

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

test('when /config.json names Keycloak, the realm and the client, then the BFF is this origin and the backend production', () => {
  const env = parseRuntimeConfig(valid);

  assert.deepEqual(env.keycloak, {
    url: 'https://auth.example.com',
    realm: 'raly',
    clientId: 'raly-web',
  });
  assert.equal(env.bffUrl, '');
  assert.equal(env.apiBaseUrl, '/api');
  assert.equal(env.backend, 'production');
});

test('when the BFF and Keycloak URLs end with a slash, then the slashes are dropped', () => {
  const env = parseRuntimeConfig({
    ...valid,
    keycloakUrl: 'https://auth.example.com/',
    bffUrl: 'https://bff.example.com/',
  });

  assert.equal(env.keycloak.url, 'https://auth.example.com');
  assert.equal(env.apiBaseUrl, 'https://bff.example.com/api');
});

test('when backendEnvironment is staging, then the config says the backend is staging', () => {
  assert.equal(parseRuntimeConfig({ ...valid, backendEnvironment: 'staging' }).backend, 'staging');
});

test('when values are missing or malformed, then start fails with a ConfigError naming each field', async () => {
  const error = await configErrorOf(() =>
    parseRuntimeConfig({
      keycloakUrl: 'ftp://keycloak.example',
      keycloakClientId: '',
      backendEnvironment: 'stagign',
    }),
  );

  const fields = error.problems.map((problem) => problem.split(':')[0]);
  assert.deepEqual(fields.sort(), [
    'backendEnvironment',
    'keycloakClientId',
    'keycloakRealm',
    'keycloakUrl',
  ]);
  assert.match(error.message, /keycloakUrl: expected an http\(s\) URL/);
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
    return Response.json({ ...valid, keycloakRealm: 'other' });
  });

  assert.equal(asked, RUNTIME_CONFIG_PATH);
  assert.equal(env.keycloak.realm, 'other');
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
