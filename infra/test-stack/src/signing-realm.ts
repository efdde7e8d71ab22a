/**
 * A stand-in for a Keycloak realm's signing keys (JWKS server on 127.0.0.1):
 * for tests of the kit's access-token verifier and its key cache, and for
 * bff/scripts/measure-token-verification.ts. The real realm's rules are
 * tested against Keycloak.
 */
import { generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import { createServer } from 'node:http';
import { SignJWT, exportJWK } from 'jose';
import { uniqueToken } from './records';

/** A stand-in for a realm's signing keys: serves a JWKS and signs tokens with its keys. */
export interface SigningRealm {
  /** Base URL to use as `KeycloakSettings.url` and `publicUrl` (realm `raly`). */
  url: string;
  /** The issuer its tokens carry: `<url>/realms/raly`. */
  issuer: string;
  /** How many times the JWKS was fetched. */
  jwksFetches(): number;
  /** Starts signing with a new key (new `kid`), published in the JWKS from now on. */
  rotate(): Promise<void>;
  /**
   * Signs an access token (RS256) with the current key.
   * @param claims merged over a valid access token for `raly-bff` issued to `raly-bff-login`, 5 minutes long
   */
  sign(claims?: Record<string, unknown>): Promise<string>;
  close(): Promise<void>;
}

/**
 * Starts a JWKS server on 127.0.0.1 with one RSA key. For tests of the
 * token verifier's key cache and for measuring it (bff/scripts); the real
 * realm's rules are tested against Keycloak.
 */
export async function startSigningRealm(): Promise<SigningRealm> {
  const keys: Array<{ kid: string; privateKey: KeyObject; jwk: object }> = [];
  const rotate = async () => {
    const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const kid = uniqueToken(16);
    keys.push({
      kid,
      privateKey,
      jwk: { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' },
    });
  };
  await rotate();
  let fetches = 0;
  const server = createServer((_request, response) => {
    fetches += 1;
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify({ keys: keys.map((key) => key.jwk) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const issuer = `${url}/realms/raly`;
  return {
    url,
    issuer,
    jwksFetches: () => fetches,
    rotate,
    async sign(claims = {}) {
      const current = keys.at(-1)!;
      const nowSec = Math.floor(Date.now() / 1000);
      return new SignJWT({
        iss: issuer,
        aud: ['raly-bff', 'account'],
        azp: 'raly-bff-login',
        typ: 'Bearer',
        sub: randomUUID(),
        sid: randomUUID(),
        email: 'someone@example.com',
        iat: nowSec,
        exp: nowSec + 300,
        ...claims,
      })
        .setProtectedHeader({ alg: 'RS256', kid: current.kid, typ: 'JWT' })
        .sign(current.privateKey);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
