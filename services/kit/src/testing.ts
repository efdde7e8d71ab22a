/**
 * Test helpers shared by the services' integration tests: fresh, uniquely
 * named, migrated databases, unique values and raw HTTP requests. Where the stack is comes
 * from `@raly/infra/test-env`. Tests only; never imported by service code.
 */
import { generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import { createServer, request } from 'node:http';
import path from 'node:path';
import { resolveTestStack } from '@raly/infra/test-env';
import { SignJWT, exportJWK } from 'jose';
import { Kafka, logLevel, type Consumer, type KafkaMessage } from 'kafkajs';
import pg from 'pg';
import { migrate } from './migrate';

/** A short unique lowercase token of letters and digits (fits a username). */
export function uniqueToken(length = 10): string {
  return randomUUID().replaceAll('-', '').slice(0, length);
}

/** A database created for one test file, and how to drop it. */
export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/**
 * Creates a fresh database named `<prefix>_test_<token>` and applies the
 * service's migrations to it (with the migration runner under test).
 * @param prefix the service database name, e.g. `raly_identity`
 * @param serviceDir the service folder holding `prisma/migrations`
 */
export async function createTestDatabase(
  prefix: string,
  serviceDir: string,
): Promise<TestDatabase> {
  const stack = await resolveTestStack();
  const url = stack.databaseUrl(`${prefix}_test_${uniqueToken(12)}`);
  await migrate(url, path.join(serviceDir, 'prisma', 'migrations'));
  return { url, drop: () => dropDatabase(url) };
}

/**
 * Drops a test database (ends its other connections first).
 * @param databaseUrl URL of the database to drop
 */
export async function dropDatabase(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const database = url.pathname.slice(1);
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

/** What a test reads from a topic: every message since it started listening. */
export interface TopicListener {
  messages: KafkaMessage[];
  /**
   * Waits until a message matches.
   * @param timeoutMs default 15 000
   * @throws when none arrives in time
   */
  waitFor(matches: (message: KafkaMessage) => boolean, timeoutMs?: number): Promise<KafkaMessage>;
  stop(): Promise<void>;
}

/**
 * Listens to `topic` with a fresh consumer group, from the beginning (tests
 * pick their messages by unique keys, so this cannot miss one that raced the
 * group join).
 * @param brokers the stack's Kafka brokers
 */
export async function listenToTopic(brokers: string[], topic: string): Promise<TopicListener> {
  const kafka = new Kafka({ clientId: 'raly-test', brokers, logLevel: logLevel.NOTHING });
  const consumer: Consumer = kafka.consumer({ groupId: `raly-test-${uniqueToken(12)}` });
  const messages: KafkaMessage[] = [];
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  const joined = new Promise<void>((resolve) =>
    consumer.on(consumer.events.GROUP_JOIN, () => resolve()),
  );
  await consumer.run({
    eachMessage: async ({ message }) => {
      messages.push(message);
    },
  });
  await joined;
  return {
    messages,
    async waitFor(matches, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = messages.find(matches);
        if (found) return found;
        if (Date.now() > deadline)
          throw new Error(`no matching message on ${topic} within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    stop: () => consumer.disconnect(),
  };
}

/** A JSON answer read by {@link sendRaw}. */
export interface RawAnswer<Body = unknown> {
  status: number;
  /** The parsed JSON body (undefined when empty). */
  body: Body;
}

/**
 * One HTTP request with exactly these headers and bytes: for bodies `fetch`
 * would rewrite or refuse (cut-off multipart, gzip, a wrong Content-Length).
 * @param url absolute URL, e.g. `http://127.0.0.1:4003/images/user/cover`
 * @param body sent as is; the request ends after it
 * @returns status and parsed JSON body
 * @throws Error when no answer arrives within 10 s or the connection fails
 */
export function sendRaw<Body = unknown>(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: Buffer } = {},
): Promise<RawAnswer<Body>> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: target.hostname,
        port: target.port,
        path: `${target.pathname}${target.search}`,
        method: options.method ?? 'POST',
        headers: options.headers ?? {},
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          resolve({
            status: response.statusCode ?? 0,
            body: (text ? JSON.parse(text) : undefined) as Body,
          });
        });
      },
    );
    req.setTimeout(10_000, () => req.destroy(new Error('no answer within 10 s')));
    req.on('error', reject);
    req.end(options.body);
  });
}

/**
 * A multipart/form-data body with one file part `file`, cut `cutBytes`
 * before its end (0 for the whole body): what a client that stops sending
 * early leaves behind.
 * @returns the body and its Content-Type header (with the boundary)
 */
export function multipartWithFile(
  file: { name: string; type: string; bytes: Buffer },
  cutBytes = 0,
): { body: Buffer; contentType: string } {
  const boundary = `raly-test-${uniqueToken(8)}`;
  const whole = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
    ),
    file.bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return {
    body: whole.subarray(0, whole.length - cutBytes),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

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
   * @param claims merged over a valid access token for `raly-bff` issued to `raly-web`, 5 minutes long
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
        azp: 'raly-web',
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
