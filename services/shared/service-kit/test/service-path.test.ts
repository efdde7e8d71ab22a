/**
 * Naming a service route: the path builder encodes each segment and refuses
 * one that names no resource, and the guard every app mounts refuses such a
 * path before any route sees it.
 */
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { describe, test, beforeAll, afterAll } from 'vitest';
import { AppError } from '../src/errors';
import { createHttpApp, listen, type RunningServer } from '../src/http';
import { createLogger } from '../src/logger';
import { servicePath, serviceUrl } from '../src/service-path';

describe('servicePath', () => {
  test('when segments hold slashes, dots, spaces or percent signs, then each is encoded into one segment', () => {
    assert.equal(servicePath(['offers', 'a/b', 'applications']), '/offers/a%2Fb/applications');
    assert.equal(servicePath(['offers', '.x', '%2e', 'a b']), '/offers/.x/%252e/a%20b');
    assert.equal(servicePath(['users', 'me']), '/users/me');
  });

  test('when a query is given, then it follows the path, encoded', () => {
    assert.equal(
      servicePath(['images', 'brand', 'cover'], { ownerId: 'a&b=c' }),
      '/images/brand/cover?ownerId=a%26b%3Dc',
    );
    assert.equal(servicePath(['offers'], new URLSearchParams()), '/offers');
  });

  test('when a segment is empty, "." or "..", then it throws a 404 AppError and builds nothing', () => {
    for (const segment of ['', '.', '..']) {
      assert.throws(
        () => servicePath(['offers', segment, 'applications']),
        (error: unknown) => error instanceof AppError && error.httpStatus === 404,
        JSON.stringify(segment),
      );
    }
  });

  test('when a base URL ends with a slash, then serviceUrl joins it with one slash', () => {
    assert.equal(
      serviceUrl('http://offers:4004/', ['brands', 'b1', 'offers']),
      'http://offers:4004/brands/b1/offers',
    );
    assert.equal(serviceUrl('http://offers:4004', ['offers']), 'http://offers:4004/offers');
  });
});

describe('every app refuses a path segment that names no resource', () => {
  let server: RunningServer;
  const reached: string[] = [];

  beforeAll(async () => {
    const app = createHttpApp({
      logger: createLogger('kit-service-path-test', 'silent'),
      routes: (routes) => {
        routes.get('/offers', (_req, res) => {
          reached.push('feed');
          res.json({ data: [] });
        });
        routes.get('/offers/:id', (req, res) => {
          reached.push(req.params.id);
          res.json({ data: { id: req.params.id } });
        });
        routes.get('/offers/:id/applications', (req, res) => {
          res.json({ data: { offerId: req.params.id } });
        });
      },
    });
    server = await listen(app, 0, '127.0.0.1');
  });

  afterAll(async () => {
    await server?.close();
  });

  /** GET with the path exactly as written: `fetch` and `URL` would resolve the dot segments first. */
  const get = (path: string) =>
    new Promise<number>((resolve, reject) => {
      request({ host: '127.0.0.1', port: server.port, path }, (answer) => {
        answer.resume();
        resolve(answer.statusCode ?? 0);
      })
        .on('error', reject)
        .end();
    });

  test('when an id is ".", "..", "%2e", "%2E%2e" or empty, then the answer is 404 and no route ran', async () => {
    // Arrange
    const paths = [
      '/offers/.',
      '/offers/..',
      '/offers/%2e',
      '/offers/%2E%2e',
      '/offers/./applications',
      '/offers/%2e%2e/applications',
      '/offers//applications',
      '//offers',
    ];
    reached.length = 0;

    // Act
    const statuses = await Promise.all(paths.map(get));

    // Assert
    assert.deepEqual(
      statuses,
      paths.map(() => 404),
    );
    assert.deepEqual(reached, []);
  });

  test('when ids merely hold dots or the path ends with a slash, then the routes answer', async () => {
    reached.length = 0;
    assert.equal(await get('/offers/a.b'), 200);
    assert.equal(await get('/offers/...'), 200);
    assert.equal(await get('/offers/'), 200);
    assert.equal(await get('/offers?q=..'), 200);
    assert.deepEqual(reached, ['a.b', '...', 'feed', 'feed']);
  });
});
