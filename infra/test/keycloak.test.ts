import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'vitest';
import {
  createKeycloakUser,
  decodeJwtClaims,
  loginClientId,
  passwordGrant,
  refreshGrant,
  resolveTestStack,
} from '../src/test-env';
import type { StackEndpoints } from '../src/stack/endpoints';
import { keycloakTracingOptions } from '../src/stack/keycloak';

const uniqueEmail = () => `infra-${randomUUID()}@example.com`;

/** One call of the realm's token endpoint with `form`; Keycloak's status and error code. */
async function tokenEndpoint(
  stack: StackEndpoints,
  form: Record<string, string>,
): Promise<{ status: number; error: string | undefined }> {
  const answer = await fetch(
    `${stack.keycloakUrl}/realms/${stack.realm}/protocol/openid-connect/token`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form),
    },
  );
  const body = (await answer.json()) as { error?: string };
  return { status: answer.status, error: body.error };
}

describe('the raly realm', () => {
  test('when a user created by the identity service account logs in with the password grant, then the access token is for raly-bff and names the user', async () => {
    // Arrange
    const stack = await resolveTestStack();
    const email = uniqueEmail();
    const userId = await createKeycloakUser(stack, { email, password: 'secret1' });

    // Act
    const tokens = await passwordGrant(stack, email, 'secret1');

    // Assert
    const claims = decodeJwtClaims(tokens.access_token);
    const audience = ([] as unknown[]).concat(claims.aud);
    assert.ok(audience.includes('raly-bff'), `aud was ${JSON.stringify(claims.aud)}`);
    assert.equal(claims.sub, userId);
    assert.equal(claims.email, email);
    assert.equal(claims.preferred_username, email);
    assert.equal(claims.iss, `${stack.keycloakPublicUrl}/realms/${stack.realm}`);
    assert.equal(Number(claims.exp) - Number(claims.iat), 300);
    assert.equal(claims.azp, loginClientId);
    assert.ok(tokens.refresh_token, 'a refresh token is issued to the BFF');
  });

  test("when the public web client asks for a password grant, then Keycloak refuses it: only the BFF's confidential sign-in client may (docs/adr/0009)", async () => {
    // Arrange
    const stack = await resolveTestStack();
    const email = uniqueEmail();
    await createKeycloakUser(stack, { email, password: 'secret1' });

    // Act
    const answer = await tokenEndpoint(stack, {
      grant_type: 'password',
      client_id: 'raly-web',
      username: email,
      password: 'secret1',
      scope: 'openid',
    });

    // Assert
    assert.equal(answer.status, 400, 'raly-web has direct access grants off');
    assert.equal(answer.error, 'unauthorized_client');
  });

  test('when the sign-in client is used without its secret or with a wrong one, then Keycloak refuses the password grant', async () => {
    // Arrange
    const stack = await resolveTestStack();
    const email = uniqueEmail();
    await createKeycloakUser(stack, { email, password: 'secret1' });
    const grant = { grant_type: 'password', username: email, password: 'secret1' };

    // Act
    const answers = await Promise.all([
      tokenEndpoint(stack, { ...grant, client_id: loginClientId }),
      tokenEndpoint(stack, { ...grant, client_id: loginClientId, client_secret: 'not-the-secret' }),
    ]);

    // Assert
    for (const answer of answers) {
      assert.equal(answer.status, 401, JSON.stringify(answer));
      assert.ok(
        answer.error === 'unauthorized_client' || answer.error === 'invalid_client',
        JSON.stringify(answer),
      );
    }
  });

  test("when the sign-in client's refresh token is refreshed, then only the sign-in client with its secret can, and the token rotates", async () => {
    // Arrange
    const stack = await resolveTestStack();
    const email = uniqueEmail();
    await createKeycloakUser(stack, { email, password: 'secret1' });
    const tokens = await passwordGrant(stack, email, 'secret1');
    const refreshToken = tokens.refresh_token!;

    // Act
    const asWeb = await tokenEndpoint(stack, {
      grant_type: 'refresh_token',
      client_id: 'raly-web',
      refresh_token: refreshToken,
    });
    const withoutSecret = await tokenEndpoint(stack, {
      grant_type: 'refresh_token',
      client_id: loginClientId,
      refresh_token: refreshToken,
    });
    const renewed = await refreshGrant(stack, refreshToken);

    // Assert
    assert.equal(asWeb.status, 400, JSON.stringify(asWeb));
    assert.equal(withoutSecret.status, 401, JSON.stringify(withoutSecret));
    assert.equal(decodeJwtClaims(renewed.access_token).azp, loginClientId);
    assert.notEqual(renewed.refresh_token, refreshToken);
    await assert.rejects(
      refreshGrant(stack, refreshToken),
      /invalid_grant/,
      'the old one is spent',
    );
  });

  test('when the password is wrong, then the password grant is refused', async () => {
    const stack = await resolveTestStack();
    const email = uniqueEmail();
    await createKeycloakUser(stack, { email, password: 'secret1' });

    await assert.rejects(passwordGrant(stack, email, 'wrong-password'), /invalid_grant/);
  });

  test('when a password is shorter than 6 characters, then Keycloak refuses to create the user', async () => {
    const stack = await resolveTestStack();

    await assert.rejects(
      createKeycloakUser(stack, { email: uniqueEmail(), password: 'short' }),
      /HTTP 400/,
    );
  });

  test('when a second user registers with the same e-mail, then Keycloak answers a conflict', async () => {
    const stack = await resolveTestStack();
    const email = uniqueEmail();
    await createKeycloakUser(stack, { email, password: 'secret1' });

    await assert.rejects(createKeycloakUser(stack, { email, password: 'secret2' }), /HTTP 409/);
  });
});

describe('Keycloak tracing', () => {
  test('when the stack starts without an OTLP endpoint, then Keycloak traces nothing', () => {
    assert.deepEqual(
      keycloakTracingOptions({ OTEL_EXPORTER_ZIPKIN_ENDPOINT: 'http://z:9411' }),
      [],
    );
  });

  test('when an OTLP endpoint is set, then Keycloak exports there (it adds /v1/traces itself) over OTLP/HTTP as `keycloak`, following the caller’s sampling', () => {
    // Act
    const options = keycloakTracingOptions({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318/',
    });

    // Assert
    assert.deepEqual(options, [
      '--tracing-enabled=true',
      '--tracing-endpoint=http://127.0.0.1:4318',
      '--tracing-protocol=http/protobuf',
      '--tracing-sampler-type=parentbased_always_on',
      '--telemetry-service-name=keycloak',
    ]);
    assert.ok(
      keycloakTracingOptions({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://b:4318/v1/traces',
      }).includes('--tracing-endpoint=http://b:4318'),
    );
  });
});
