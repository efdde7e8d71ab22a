import { test } from 'vitest';
import assert from 'node:assert/strict';
import { ConfigError, parseEnv } from '../../src/config/env.ts';
import { logStagingNotice, STAGING_NOTICE } from '../../src/lib/staging-notice.ts';

test('when no VITE_* value is given, then the local defaults apply', () => {
  const env = parseEnv({});

  assert.equal(env.keycloak.url, 'http://localhost:8080');
  assert.equal(env.keycloak.realm, 'raly');
  assert.equal(env.keycloak.clientId, 'raly-web');
  assert.equal(env.backend, 'local');
});

test('when VITE_BACKEND_ENV is staging, then the config says the backend is staging', () => {
  assert.equal(parseEnv({ VITE_BACKEND_ENV: 'staging' }).backend, 'staging');
});

test('when VITE_BACKEND_ENV is not a known backend, then start fails with a ConfigError naming it', () => {
  assert.throws(
    () => parseEnv({ VITE_BACKEND_ENV: 'stagign' }),
    (error: unknown) => {
      return error instanceof ConfigError && /VITE_BACKEND_ENV="stagign"/.test(error.message);
    },
  );
});

test('when VITE_KEYCLOAK_URL is not an http(s) URL, then start fails with a ConfigError', () => {
  assert.throws(() => parseEnv({ VITE_KEYCLOAK_URL: 'localhost:8080' }), ConfigError);
  assert.throws(() => parseEnv({ VITE_KEYCLOAK_URL: 'ftp://keycloak.example' }), ConfigError);
});

test('when VITE_KEYCLOAK_URL ends with a slash, then the slash is dropped', () => {
  assert.equal(
    parseEnv({ VITE_KEYCLOAK_URL: 'https://id.example.com/' }).keycloak.url,
    'https://id.example.com',
  );
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
