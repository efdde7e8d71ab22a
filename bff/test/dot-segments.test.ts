/**
 * An id that names no resource (`.`, `..`, raw or percent-encoded): the BFF
 * refuses it with a 404 before any route runs, so it never becomes another
 * route of a service behind (`/offers/.` is the offers feed `/offers/`,
 * `/offers/./applications` is `GET /offers/applications`).
 */
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { describe, test, beforeAll, afterAll } from 'vitest';
import type { RunningBff } from '../src/app';
import { testStack } from '@raly/test-support';
import { startTestBff } from '@raly/test-support/bff';
import { type RalySystem, registeredCreator, startSystem } from '@raly/test-support/system';

let system: RalySystem;
let bff: RunningBff;
let token: string;

beforeAll(async () => {
  system = await startSystem({ offers: true });
  bff = await startTestBff(await testStack(), {
    IDENTITY_URL: system.identityUrl,
    BRAND_URL: system.brandUrl,
    OFFERS_URL: system.offersUrl,
  });
  token = (await registeredCreator(system)).accessToken;
});

afterAll(async () => {
  await bff?.stop();
  await system?.stop();
});

/** One signed-in request with the path exactly as written: `fetch` and `URL` resolve dot segments first. */
function send(method: string, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    request(
      {
        host: '127.0.0.1',
        port: bff.port,
        path,
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      },
      (answer) => {
        let body = '';
        answer.setEncoding('utf8');
        answer.on('data', (chunk: string) => (body += chunk));
        answer.on('end', () => resolve({ status: answer.statusCode ?? 0, body }));
      },
    )
      .on('error', reject)
      .end(method === 'GET' ? undefined : '{}');
  });
}

describe('an id that names no resource', () => {
  test('when a signed-in creator asks for offer ".", "%2e", ".." or "%2E%2e", then it answers 404, neither 500 nor the feed', async () => {
    for (const id of ['.', '%2e', '..', '%2E%2e']) {
      const answer = await send('GET', `/api/offers/${id}`);
      assert.equal(answer.status, 404, `${id}: ${answer.body}`);
      assert.doesNotMatch(answer.body, /"items"|"data"/, id);
    }
  });

  test('when the id before a sub-route is a dot segment, then it answers 404 and no service route the caller never named runs', async () => {
    const requests = [
      ['GET', '/api/offers/./applications'],
      ['GET', '/api/offers/%2e%2e/applications'],
      ['POST', '/api/offers/./applications'],
      ['POST', '/api/offers/%2e/open'],
      ['PATCH', '/api/offers/..'],
      ['POST', '/api/applications/./accept'],
      ['GET', '/api/public/brands/%2e'],
      ['GET', '/api/brands/..'],
      ['GET', '/api/public/users/..'],
    ];
    for (const [method, path] of requests) {
      const answer = await send(method!, path!);
      assert.equal(answer.status, 404, `${method} ${path}: ${answer.body}`);
      assert.match(answer.body, /"code":"not-found"/, `${method} ${path}`);
    }
  });

  test('when a callable is named "..", then the 404 has the callable error shape', async () => {
    const answer = await send('POST', '/api/callable/%2e%2e');
    assert.equal(answer.status, 404, answer.body);
    assert.match(answer.body, /"code":"not-found"/);
    assert.match(answer.body, /"status":"/);
  });

  test('when the feed itself is asked for, then it still answers a page of offers', async () => {
    const answer = await send('GET', '/api/offers/?page=1&pageSize=5');
    assert.equal(answer.status, 200, answer.body);
    assert.match(answer.body, /"items"/);
  });
});
