/**
 * Per-caller authentication of internal routes (src/internal.ts, docs/adr/0008):
 * the guard accepts only realm-signed access tokens meant for this service's
 * client (`aud`), issued to a caller the route allows (`azp`); 401 for no,
 * forged, expired or misdirected tokens, 403 for a valid caller the route
 * does not allow. The real realm's clients are exercised by the services'
 * tests (identity-profile internal-endpoints, brand brands).
 */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { INTERNAL_TOKEN_HEADER } from '@raly/contracts/internal';
import { startSigningRealm, type SigningRealm } from '@raly/test-stack/signing-realm';
import { AppError } from '../src/errors';
import { serviceCallerGuardsOf } from '../src/internal';

let realm: SigningRealm;
let server: Server;
let base: string;

beforeAll(async () => {
  realm = await startSigningRealm();
  const allow = serviceCallerGuardsOf(
    {
      KEYCLOAK_URL: realm.url,
      KEYCLOAK_PUBLIC_URL: realm.url,
      KEYCLOAK_REALM: 'raly',
      KEYCLOAK_SERVICE_CLIENT_ID: 'raly-identity-service',
    },
    ['raly-bff-service', 'raly-brand-service'],
  );
  const app = express();
  app.post('/accounts', allow('raly-bff-service'), (_req, res) => void res.json({ data: true }));
  app.use(
    (error: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) =>
      void res
        .status(error instanceof AppError ? error.httpStatus : 500)
        .json({ error: { code: error instanceof AppError ? error.code : 'internal' } }),
  );
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await realm.close();
});

/** POST /accounts with `token` (if any) in the service-token header → status and error code. */
async function postAccounts(token?: string) {
  const response = await fetch(`${base}/accounts`, {
    method: 'POST',
    headers: token ? { [INTERNAL_TOKEN_HEADER]: token } : {},
  });
  const body = (await response.json()) as { error?: { code: string } };
  return [response.status, body.error?.code ?? 'ok'];
}

/** A service-account token: meant for `aud`, issued to `azp`. */
const serviceToken = (azp: string, aud: string, extra: Record<string, unknown> = {}) =>
  realm.sign({ azp, aud, client_id: azp, ...extra });

describe('internal route guard (requireServiceCaller)', () => {
  test("when the BFF's token meant for identity-profile comes, then the route answers", async () => {
    assert.deepEqual(
      await postAccounts(await serviceToken('raly-bff-service', 'raly-identity-service')),
      [200, 'ok'],
    );
  });

  test('when a caller this route does not allow comes with a valid token, then it answers 403 permission-denied', async () => {
    assert.deepEqual(
      await postAccounts(await serviceToken('raly-brand-service', 'raly-identity-service')),
      [403, 'permission-denied'],
    );
  });

  const refused: [string, () => Promise<string | undefined>][] = [
    ['missing', async () => undefined],
    ['garbage', async () => 'not-a-token'],
    [
      'meant for another service (aud raly-brand-service)',
      () => serviceToken('raly-media-service', 'raly-brand-service'),
    ],
    ["a user's access token (aud raly-bff, azp raly-bff-login)", () => realm.sign({})],
    [
      'issued to a client no internal route knows',
      () => serviceToken('raly-web', 'raly-identity-service'),
    ],
    [
      'expired',
      () =>
        serviceToken('raly-bff-service', 'raly-identity-service', {
          exp: Math.floor(Date.now() / 1000) - 10,
        }),
    ],
    [
      'from another issuer',
      () =>
        serviceToken('raly-bff-service', 'raly-identity-service', {
          iss: 'http://elsewhere.example/realms/raly',
        }),
    ],
    [
      'with a tampered signature',
      async () => {
        const token = await serviceToken('raly-bff-service', 'raly-identity-service');
        return `${token.slice(0, -6)}${token.endsWith('AAAAAA') ? 'BBBBBB' : 'AAAAAA'}`;
      },
    ],
  ];
  for (const [what, token] of refused)
    test(`when the service token is ${what}, then it answers 401 unauthenticated`, async () => {
      assert.deepEqual(await postAccounts(await token()), [401, 'unauthenticated']);
    });
});
