/**
 * The Content-Security-Policy of the built app (vite.shared.ts; web/nginx.conf renders the same,
 * infra/test/deploy-manifests.test.ts compares them): our origin, the BFF's origin when it has its
 * own, images as before, and Keycloak's origin only when the staff console signs in there
 * (docs/adr/0009: the product talks to the BFF only; docs/console.md).
 */
import assert from 'node:assert/strict';
import { test } from 'vitest';
import { contentSecurityPolicy, webConfig } from '../../vite.shared.ts';

/** The policy as directive → sources. */
function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy
      .split(';')
      .map((directive) => directive.trim().split(/\s+/))
      .map(([name, ...sources]) => [name!, sources]),
  );
}

test('when the BFF is on this origin, then the browser may connect only to this origin and to sockets, and frame nothing', () => {
  const policy = directives(contentSecurityPolicy(''));

  assert.deepEqual(policy.get('connect-src'), ["'self'", 'ws:', 'wss:']);
  assert.deepEqual(policy.get('default-src'), ["'self'"]);
  assert.deepEqual(policy.get('script-src'), ["'self'"]);
  assert.deepEqual(policy.get('img-src'), ["'self'", 'data:', 'blob:', 'https:', 'http:']);
  assert.deepEqual(policy.get('frame-ancestors'), ["'none'"]);
  assert.equal(policy.has('frame-src'), false, 'frames fall back to default-src: this origin');
});

test('when the BFF has its own origin, then connect-src adds that origin (not the path or the slash) and nothing else', () => {
  const policy = directives(contentSecurityPolicy('https://bff.example.com:8443/'));

  assert.deepEqual(policy.get('connect-src'), [
    "'self'",
    'ws:',
    'wss:',
    'https://bff.example.com:8443',
  ]);
});

test("when the preview server is configured, then its CSP names the /config.json BFF and no Keycloak origin, whatever the proxy's target", () => {
  const local = webConfig({ bffUrl: 'http://127.0.0.1:4000' });
  const ownOrigin = webConfig({
    bffUrl: 'http://127.0.0.1:4000',
    runtimeConfig: { bffUrl: 'https://bff.example.com' },
  });

  const localPolicy = String(local.preview?.headers?.['Content-Security-Policy']);
  const ownOriginPolicy = String(ownOrigin.preview?.headers?.['Content-Security-Policy']);
  assert.equal(localPolicy, contentSecurityPolicy(''));
  assert.equal(ownOriginPolicy, contentSecurityPolicy('https://bff.example.com'));
  for (const policy of [localPolicy, ownOriginPolicy]) {
    assert.doesNotMatch(policy, /8080|keycloak|auth\./i);
    assert.doesNotMatch(policy, /127\.0\.0\.1:4000/);
  }
});

test("when the staff console's Keycloak is configured, then connect-src adds Keycloak's origin (for the console's token requests) and nothing else changes", () => {
  const policy = directives(contentSecurityPolicy('', 'http://localhost:8080/'));
  const preview = webConfig({
    bffUrl: 'http://127.0.0.1:4000',
    runtimeConfig: { consoleKeycloakUrl: 'https://auth.example.com' },
  });

  assert.deepEqual(policy.get('connect-src'), ["'self'", 'ws:', 'wss:', 'http://localhost:8080']);
  assert.deepEqual(policy.get('form-action'), ["'self'"]);
  assert.equal(
    preview.preview?.headers?.['Content-Security-Policy'],
    contentSecurityPolicy('', 'https://auth.example.com'),
  );
});
