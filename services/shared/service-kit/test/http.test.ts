/**
 * The kit's express app against bad input: every refusal of the body parser
 * and the router is the caller's 4xx, deep JSON is refused before a handler
 * sees it, and a value Postgres refuses (SQLSTATE class 22) is a 400 — never
 * a 500, never a crashed process. The kit's own failures answer in the words
 * the app gave it (here Raly's, as every app passes them).
 */
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { gzipSync } from 'node:zlib';
import { describe, test, beforeAll, afterAll } from 'vitest';
import { failureMessages, messages } from '@raly/contracts/messages';
import pg from 'pg';
import { createHttpApp, listen, nestingExceeds, type RunningServer } from '../src/http';
import { createLogger } from '../src/logger';
import { resolveTestStack, sendRaw } from '@raly/test-stack';

let server: RunningServer;
let pool: pg.Pool;

beforeAll(async () => {
  const stack = await resolveTestStack();
  pool = new pg.Pool({ connectionString: stack.databaseUrl('postgres'), max: 2 });
  const app = createHttpApp({
    logger: createLogger('kit-http-test', 'silent'),
    failureMessages,
    routes: (routes) => {
      routes.post('/echo', (req, res) => {
        res.json({ data: JSON.parse(JSON.stringify(req.body)) as unknown });
      });
      routes.get('/things/:name', async (req, res) => {
        const { rows } = await pool.query('SELECT $1::text AS name', [req.params.name]);
        res.json({ data: rows[0] });
      });
      routes.get('/ids/:id', async (req, res) => {
        const { rows } = await pool.query('SELECT $1::uuid AS id', [req.params.id]);
        res.json({ data: rows[0] });
      });
    },
  });
  server = await listen(app, 0, '127.0.0.1');
});

afterAll(async () => {
  await server.close();
  await pool.end();
});

interface ErrorAnswer {
  data?: unknown;
  error?: { code: string; message: string };
}

/** One request to the app under test with exactly these headers and bytes. */
const send = (method: string, path: string, headers: Record<string, string> = {}, body?: Buffer) =>
  sendRaw<ErrorAnswer>(`http://127.0.0.1:${server.port}${path}`, { method, headers, body });

/** A GET with exactly these headers and bytes, read as text (a connection reset rejects). */
const sendForText = (path: string, headers: Record<string, string>, body: Buffer) =>
  new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: server.port, path, method: 'GET', headers, agent: false },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString() }),
        );
      },
    );
    req.setTimeout(10_000, () => req.destroy(new Error('no answer within 10 s')));
    req.on('error', reject);
    req.end(body);
  });

const jsonType = { 'content-type': 'application/json' };
const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

describe('createHttpApp with bad input', () => {
  const cases: Array<[string, Record<string, string>, Buffer, number, string]> = [
    ['is not JSON', jsonType, Buffer.from('{"a":'), 400, 'invalid-argument'],
    [
      'is over the size limit',
      jsonType,
      Buffer.from(`"${'a'.repeat(200_000)}"`),
      413,
      'payload-too-large',
    ],
    [
      'is gzip that inflates past the size limit',
      { ...jsonType, 'content-encoding': 'gzip' },
      gzipSync(Buffer.from(`"${' '.repeat(5_000_000)}"`)),
      413,
      'payload-too-large',
    ],
    [
      'is corrupt gzip',
      { ...jsonType, 'content-encoding': 'gzip' },
      Buffer.from('not gzip at all'),
      400,
      'invalid-argument',
    ],
    [
      'has an unsupported Content-Encoding',
      { ...jsonType, 'content-encoding': 'br-nope' },
      Buffer.from('{}'),
      415,
      'unsupported-media-type',
    ],
    [
      'has an unsupported charset',
      { 'content-type': 'application/json; charset=koi8-r' },
      Buffer.from('{}'),
      415,
      'unsupported-media-type',
    ],
    ['nests 20,000 arrays deep', jsonType, Buffer.from(nested(20_000)), 400, 'invalid-argument'],
  ];
  for (const [what, headers, body, status, code] of cases) {
    test(`when the JSON body ${what}, then the answer is ${status} '${code}'`, async () => {
      // Act
      const answer = await send('POST', '/echo', headers, body);

      // Assert
      assert.equal(answer.status, status, JSON.stringify(answer.body));
      assert.equal(answer.body.error?.code, code);
      assert.ok(answer.body.error?.message);
    });
  }

  test('when the body nests exactly 64 levels, then the handler gets it', async () => {
    // Act
    const answer = await send('POST', '/echo', jsonType, Buffer.from(nested(64)));

    // Assert
    assert.equal(answer.status, 200);
  });

  test('when a path has a malformed percent-encoding, then the answer is 400', async () => {
    // Act
    const answer = await send('GET', '/things/%ff');

    // Assert
    assert.equal(answer.status, 400);
    assert.equal(answer.body.error?.code, 'invalid-argument');
  });

  test("when Postgres refuses a path parameter (a NUL byte, not a uuid), then the answer is 400 'There was a problem with your request.'", async () => {
    // Act
    const nul = await send('GET', '/things/a%00b');
    const notUuid = await send('GET', '/ids/not-a-uuid');
    const fine = await send('GET', '/things/ab');

    // Assert
    for (const answer of [nul, notUuid]) {
      assert.equal(answer.status, 400, JSON.stringify(answer.body));
      assert.deepEqual(answer.body.error, {
        code: 'invalid-argument',
        message: messages.requestProblem,
      });
    }
    assert.deepEqual(fine.body.data, { name: 'ab' });
  });

  test("when no route answers the path, then the answer is 404 in the app's words", async () => {
    // Act
    const answer = await send('GET', '/no/such/route');

    // Assert
    assert.equal(answer.status, 404);
    assert.deepEqual(answer.body.error, { code: 'not-found', message: messages.pageNotFound });
  });
});

describe('createHttpApp with a body on a read', () => {
  test('when GET /metrics carries a 200 KB body on a closing connection, then every answer arrives whole', async () => {
    // Arrange
    const body = Buffer.alloc(200_000, 0x61);
    const headers = {
      connection: 'close',
      'content-type': 'multipart/form-data; boundary=x',
      'content-length': String(body.length),
    };

    // Act
    const answers = [];
    for (let round = 0; round < 10; round += 1)
      answers.push(await sendForText('/metrics', headers, body));

    // Assert
    for (const answer of answers) {
      assert.equal(answer.status, 200);
      assert.match(answer.text, /process_cpu_user_seconds_total/);
    }
  });

  test('when a GET declares a body over 1 MiB, then the answer is 413 and no route runs', async () => {
    // Act
    const answer = await send(
      'GET',
      '/things/anything',
      { 'content-length': String(2 * 1024 * 1024) },
      Buffer.alloc(16),
    );

    // Assert
    assert.equal(answer.status, 413);
    assert.equal(answer.body?.error?.message, failureMessages.badRequest);
  });
});

describe('nestingExceeds', () => {
  test('when a value nests objects and arrays, then a top-level object counts as one level', () => {
    assert.equal(nestingExceeds({ a: [{ b: 1 }] }, 3), false);
    assert.equal(nestingExceeds({ a: [{ b: [] }] }, 3), true);
    assert.equal(nestingExceeds('text', 0), false);
    assert.equal(nestingExceeds(JSON.parse(nested(100_000)), 64), true);
  });
});
