/**
 * The kit's one HTTP client of Raly's back ends (src/internal.ts): what it
 * sends (service token only on internal calls, JSON or form bodies, the
 * forwarded access token), what it throws when no answer comes (fetch's
 * error by default, as services rely on; 503 `unavailable` when asked), and
 * how a service's error answer is passed through unchanged.
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { INTERNAL_TOKEN_HEADER } from '@raly/contracts/internal';
import { AppError, failedBecauseOf } from '../src/errors';
import {
  callHttp,
  callInternal,
  createServiceTokenSource,
  dataOf,
  forwardedErrorOf,
  unexpectedAnswerError,
  type ServiceTokenSource,
} from '../src/internal';

interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

let server: Server;
let tokenRequests = 0;
let tokenLifespanSec = 300;
let base: string;
let received: Received[] = [];

/** A token source that always hands out `token` and records what it was told to forget. */
const fixedTokens = (token: string, forgotten: string[] = []): ServiceTokenSource => ({
  clientId: 'raly-test-service',
  token: async () => token,
  forget: (spent) => void forgotten.push(spent),
});

/** Answers by path: `/slow` never answers in time, `/refused` is a service error, the rest 200 `{ data }`. */
beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      received.push({ method: request.method!, url: request.url!, headers: request.headers, body });
      if (request.url === '/guarded' && request.headers[INTERNAL_TOKEN_HEADER] !== 'fresh') {
        response.statusCode = 401;
        return void response.end();
      }
      if (request.url === '/realms/raly/protocol/openid-connect/token') {
        const form = new URLSearchParams(body);
        tokenRequests += 1;
        response.setHeader('content-type', 'application/json');
        if (form.get('client_secret') !== 'right-secret-0123') {
          response.statusCode = 401;
          return void response.end(JSON.stringify({ error: 'unauthorized_client' }));
        }
        return void setTimeout(
          () =>
            response.end(
              JSON.stringify({
                access_token: `token-${tokenRequests}`,
                expires_in: tokenLifespanSec,
              }),
            ),
          20,
        );
      }
      if (request.url === '/slow') return void setTimeout(() => response.end('{}'), 2_000);
      response.setHeader('content-type', 'application/json');
      if (request.url === '/refused') {
        response.statusCode = 409;
        return void response.end(
          JSON.stringify({
            error: { code: 'username-taken', message: 'Taken', fields: { username: 'Taken' } },
          }),
        );
      }
      response.end(JSON.stringify({ data: { ok: true } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** An address nothing listens on: a port a server held and let go. */
async function closedAddress(): Promise<string> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return `http://127.0.0.1:${port}`;
}

describe('callInternal and callHttp', () => {
  test('when a service calls an internal endpoint, then it sends the service token, the JSON body and the forwarded access token', async () => {
    received = [];
    const answer = await callInternal(`${base}/`, fixedTokens('a-service-token-0123'), '/things', {
      method: 'PUT',
      json: { name: 'x' },
      bearer: 'user-token',
    });
    assert.deepEqual(answer, { status: 200, body: { data: { ok: true } } });
    const [request] = received;
    assert.equal(request?.method, 'PUT');
    assert.equal(request?.url, '/things');
    assert.equal(request?.headers[INTERNAL_TOKEN_HEADER], 'a-service-token-0123');
    assert.equal(request?.headers['content-type'], 'application/json');
    assert.equal(request?.headers.authorization, 'Bearer user-token');
    assert.deepEqual(JSON.parse(request?.body ?? ''), { name: 'x' });
  });

  test('when a form is posted to an endpoint outside the services, then it is url-encoded and carries no service token', async () => {
    received = [];
    await callHttp(`${base}/token`, {
      method: 'POST',
      form: { grant_type: 'password', username: 'a@b.c', password: 'p&q=r' },
    });
    const [request] = received;
    assert.equal(request?.headers['content-type'], 'application/x-www-form-urlencoded');
    assert.equal(request?.headers[INTERNAL_TOKEN_HEADER], undefined);
    assert.deepEqual(Object.fromEntries(new URLSearchParams(request?.body)), {
      grant_type: 'password',
      username: 'a@b.c',
      password: 'p&q=r',
    });
  });

  test("when the endpoint cannot be reached and the caller asks for it, then the call fails 503 unavailable as the kit's internal failure", async () => {
    const target = await closedAddress();
    const error = await callHttp(`${target}/x`, { method: 'GET', unreachable: 'unavailable' }).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    assert.ok(error instanceof AppError);
    assert.equal(error.code, 'unavailable');
    assert.equal(error.httpStatus, 503);
    assert.equal(error.isTrusted, false);
    assert.equal(error.failure, 'internal');
  });

  test('when the endpoint answers after the timeout and the caller asks for it, then the call fails 503 unavailable', async () => {
    const error = await callInternal(base, fixedTokens('a-service-token-0123'), '/slow', {
      method: 'GET',
      timeoutMs: 100,
      unreachable: 'unavailable',
    }).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    assert.ok(error instanceof AppError);
    assert.equal(error.code, 'unavailable');
  });

  test("when the endpoint cannot be reached by default, then fetch's own error is thrown, as services expect", async () => {
    const target = await closedAddress();
    const error = await callInternal(target, fixedTokens('a-service-token-0123'), '/x', {
      method: 'GET',
    }).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    assert.ok(error instanceof Error);
    assert.ok(!(error instanceof AppError));
  });
});

describe('connection reuse', () => {
  test('when calls to one service follow each other, then they reuse one kept-alive connection', async () => {
    // Arrange
    let connections = 0;
    const countConnections = () => (connections += 1);
    server.on('connection', countConnections);

    // Act
    try {
      for (let call = 0; call < 10; call += 1) await callHttp(`${base}/ok`, { method: 'GET' });
    } finally {
      server.off('connection', countConnections);
    }

    // Assert
    assert.ok(connections <= 1, `${connections} connections for 10 calls`);
  });
});

describe('dataOf and forwardedErrorOf', () => {
  test('when the answer is 2xx, then dataOf returns its data', async () => {
    const answer = await callHttp(`${base}/ok`, { method: 'GET' });
    assert.deepEqual(dataOf(answer, 'refused'), { ok: true });
  });

  test("when a service answers an error, then dataOf throws it unchanged: the service's code, message, fields and status", async () => {
    const answer = await callHttp(`${base}/refused`, { method: 'GET' });
    assert.throws(
      () => dataOf(answer, 'refused'),
      (error: unknown) =>
        error instanceof AppError &&
        error.code === 'username-taken' &&
        error.message === 'Taken' &&
        error.httpStatus === 409 &&
        error.isTrusted &&
        error.fields?.username === 'Taken',
    );
  });

  test('when an error answer has no error body, then the forwarded error is internal with the fallback message and the status', () => {
    const error = forwardedErrorOf({ status: 502, body: undefined }, 'brand refused');
    assert.equal(error.code, 'internal');
    assert.equal(error.message, 'brand refused');
    assert.equal(error.httpStatus, 502);
    assert.equal(error.isTrusted, false);
  });
});

describe('unexpectedAnswerError', () => {
  test("when a service the caller does not pass through answers 503, then the caller's failure is a 503 too; any other status stays a 500", () => {
    // Arrange
    const away = { status: 503, body: { error: { code: 'unavailable', message: 'Try again.' } } };
    const broken = { status: 500, body: undefined };

    // Act
    const errors = [away, broken].map((answer) =>
      unexpectedAnswerError(answer, 'brand service', 'POST /brands'),
    );

    // Assert
    assert.ok(errors[0] instanceof AppError);
    assert.deepEqual(
      [errors[0].code, errors[0].isTrusted, String((errors[0].cause as Error).message)],
      ['unavailable', false, 'brand service answered 503 to POST /brands'],
    );
    assert.ok(!(errors[1] instanceof AppError));
    assert.equal(errors[1]!.message, 'brand service answered 500 to POST /brands');
    assert.deepEqual(
      errors.map((error) => failedBecauseOf('Could not create.', error).httpStatus),
      [503, 500],
    );
  });
});

describe('service tokens (client credentials)', () => {
  const source = (clientSecret = 'right-secret-0123') =>
    createServiceTokenSource({
      keycloakUrl: base,
      realm: 'raly',
      clientId: 'raly-test-service',
      clientSecret,
    });

  test('when many calls want a token at once and again later, then Keycloak is asked once and the token is reused', async () => {
    // Arrange
    tokenRequests = 0;
    tokenLifespanSec = 300;
    const tokens = source();

    // Act
    const first = await Promise.all([tokens.token(), tokens.token(), tokens.token()]);
    const later = await tokens.token();

    // Assert
    assert.deepEqual(first, ['token-1', 'token-1', 'token-1']);
    assert.equal(later, 'token-1');
    assert.equal(tokenRequests, 1);
  });

  test('when the token nears its expiry, then the next call gets a new one', async () => {
    // Arrange: a 2 s token is renewed after half its life at most
    tokenRequests = 0;
    tokenLifespanSec = 2;
    const tokens = source();
    const first = await tokens.token();

    // Act
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const second = await tokens.token();

    // Assert
    assert.equal(first, 'token-1');
    assert.equal(second, 'token-2');
  });

  test('when Keycloak refuses the client, then the call fails 503 unavailable naming the client in its cause', async () => {
    const error = await source('wrong-secret-0123')
      .token()
      .then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
    assert.ok(error instanceof AppError);
    assert.equal(error.code, 'unavailable');
    assert.match(String((error.cause as Error).message), /401.*raly-test-service/);
  });

  test('when a service answers 401 to a token, then the call forgets it and is retried once with a new one', async () => {
    // Arrange: the first token is refused, the one after it accepted
    const forgotten: string[] = [];
    let handedOut = 0;
    const tokens: ServiceTokenSource = {
      clientId: 'raly-test-service',
      token: async () => (handedOut++ === 0 ? 'stale' : 'fresh'),
      forget: (spent) => void forgotten.push(spent),
    };

    // Act
    const answer = await callInternal(base, tokens, '/guarded', { method: 'GET' });

    // Assert
    assert.equal(answer.status, 200);
    assert.deepEqual(forgotten, ['stale']);
    assert.equal(handedOut, 2);
  });

  test("when a call carrying a user's token is answered 401, then that answer is returned and the service token kept", async () => {
    // Arrange
    const forgotten: string[] = [];
    received = [];

    // Act
    const answer = await callInternal(base, fixedTokens('stale', forgotten), '/guarded', {
      method: 'GET',
      bearer: 'expired-user-token',
    });

    // Assert
    assert.equal(answer.status, 401);
    assert.deepEqual(forgotten, []);
    assert.equal(received.length, 1);
  });
});
