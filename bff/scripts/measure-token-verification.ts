/**
 * Measures the cost of one access-token check, in µs, over N tokens (default
 * 2000; `node --import tsx bff/scripts/measure-token-verification.ts [N]`):
 * keycloak-connect's grant manager (the BFF's verifier before docs/adr/0006:
 * it turns the realm key into PEM on every call) against the kit's verifier
 * (parsed keys kept per `kid`). Both verify the same RS256 tokens of a
 * stand-in realm on 127.0.0.1 (`startSigningRealm`), sequentially, after a
 * warm-up pass over 200 of them (key fetch, JIT). Prints one line per verifier.
 */
import KeycloakConnect from 'keycloak-connect';
import { createAccessTokenVerifier } from '@raly/service-kit/auth';
import { startSigningRealm } from '@raly/test-support/signing-realm';

const count = Number(process.argv[2] ?? 2000);
const realm = await startSigningRealm();
const tokens = await Promise.all(Array.from({ length: count }, () => realm.sign()));

const keycloak = new KeycloakConnect({}, {
  realm: 'raly',
  'auth-server-url': realm.url,
  resource: 'raly-bff',
  'bearer-only': true,
  'verify-token-audience': true,
  'ssl-required': 'external',
  'confidential-port': 0,
} as unknown as KeycloakConnect.KeycloakConfig);
const grantManager = keycloak.grantManager as unknown as {
  createGrant(raw: string): Promise<unknown>;
};
const kit = createAccessTokenVerifier({
  url: realm.url,
  publicUrl: realm.url,
  realm: 'raly',
  audience: 'raly-bff',
  authorizedParty: 'raly-bff-login',
});

const verifiers: Record<string, (token: string) => Promise<unknown>> = {
  'keycloak-connect grant manager (before)': (token) =>
    grantManager.createGrant(JSON.stringify({ access_token: token })),
  '@raly/service-kit/auth verifier (after)': (token) => kit(token),
};

try {
  for (const [name, verify] of Object.entries(verifiers)) {
    for (const token of tokens.slice(0, 200)) await verify(token);
    const startedAt = process.hrtime.bigint();
    for (const token of tokens) await verify(token);
    const microseconds = Number(process.hrtime.bigint() - startedAt) / 1000 / count;
    console.log(`${name}: ${microseconds.toFixed(1)} µs per token check (N=${count})`);
  }
} finally {
  await realm.close();
}
