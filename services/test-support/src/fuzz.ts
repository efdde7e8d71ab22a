/**
 * HTTP fuzzing for the services' and the BFF's fuzz tests (issue 13,
 * hardening). Tests only; never imported by service code.
 *
 * A test lists its app's routes ({@link FuzzRoute}), checks the list against
 * the routes the express app really registers ({@link registeredRoutes}),
 * and hands it to {@link runFuzz} with the credentials it made through the
 * real flows. For every route, fast-check draws `FUZZ_RUNS` requests (seeded
 * by `FUZZ_SEED`): wrong JSON types per field, control characters and NUL,
 * 10k–200k character strings, nesting up to 20,000 levels, malformed JSON,
 * wrong content types, gzip/deflate bodies (valid, corrupt, inflating past
 * the limit), unsupported encodings and charsets, malformed percent-encodings
 * and NUL in path parameters, multipart bodies cut short or with a wrong
 * boundary, bodies cut off mid-stream, large headers, and missing, forged,
 * ID and wrong service tokens. Every answer must be a 4xx with
 * `{ error: { code, message } }` (docs/api.md) or a success; a 5xx, a hang,
 * a dropped connection, an uncaught exception in the process, a success with
 * credentials the route must refuse, or a dead server after the run is a
 * failure. Requests go to 127.0.0.1 only, each with a timeout.
 */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { describe, test } from 'vitest';
import { gzipSync, deflateSync } from 'node:zlib';
import { createRequire } from 'node:module';
import path from 'node:path';
import fc from 'fast-check';
import { identityServiceToken, passwordGrant, type TestStack } from './stack';
import { INTERNAL_TOKEN_HEADER } from '@raly/contracts/internal';

/** Who may call a route: anyone, a user's access token, optionally a user, the internal service token. */
export type FuzzAuth = 'none' | 'user' | 'optional-user' | 'service';

/** One route of an app, as the fuzz sees it. */
export interface FuzzRoute {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The path as registered with express, e.g. `/brands/:id` or `/files/*key`. */
  path: string;
  auth: FuzzAuth;
  /** For `auth: 'service'`: the calling services the route allows (e.g. `['bff']`); default any. */
  callers?: readonly string[];
  /** What the route reads: a JSON body, a callable `{ data }` body, a multipart upload, or nothing. */
  body: 'json' | 'callable' | 'multipart' | 'none';
  /**
   * A plausible body the mutations start from (JSON routes); its leaves are
   * replaced by wrong values one to three at a time.
   */
  base?: unknown;
  /** Well-formed values of the path parameters (by name), mixed with malformed ones. */
  params?: Record<string, string[]>;
  /** Well-formed query strings (without `?`), mixed with malformed ones. */
  queries?: string[];
  /** Callables answer errors with `error.status` too. */
  callable?: boolean;
  /** Draws `weight` × the runs per route here (routes with many ways to fail); default 1. */
  weight?: number;
}

/** Headers a request carries to prove who it is, and what they prove. */
export interface FuzzCredential {
  label: string;
  headers: Record<string, string>;
  /** Carries a valid user access token. */
  user?: boolean;
  /** Carries a valid access token of this calling service (e.g. `bff`) as the service token. */
  service?: string;
}

/** One drawn request. */
export interface FuzzCase {
  route: FuzzRoute;
  credential: FuzzCredential;
  path: string;
  payload: FuzzPayload;
}

/** A request body with its headers and a short description of what is odd about it. */
export interface FuzzPayload {
  /** What kind of oddity (failures are grouped by it), e.g. `content encoding`. */
  kind: string;
  label: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** Send only this many bytes of the body, then cut the connection (a client gone mid-upload). */
  cutAfterBytes?: number;
}

/** One failed expectation. */
export interface FuzzFailure {
  route: string;
  cause: string;
  /** The kind of oddity of the request (see {@link FuzzPayload.kind}). */
  kind: string;
  input: string;
  detail: string;
}

export interface FuzzReport {
  name: string;
  seed: number;
  runsPerRoute: number;
  requests: number;
  /** Answers by HTTP status; `hang`, `dropped` and `cut` for requests without one. */
  histogram: Record<string, number>;
  failures: FuzzFailure[];
  durationMs: number;
}

export interface FuzzOptions {
  /** Shown in the summary, e.g. `bff`. */
  name: string;
  /** `http://127.0.0.1:<port>` of the app under test. */
  baseUrl: string;
  routes: FuzzRoute[];
  credentials: FuzzCredential[];
  /** Unique text put into every generated e-mail and username, to find and delete what the run created. */
  marker: string;
  /** A GET path that must still answer 200 after the run (`/health/live`, `/api/health`). */
  healthPath: string;
  /** Requests per route; default `FUZZ_RUNS` or 40. */
  runsPerRoute?: number;
  /** Default `FUZZ_SEED` or 13. */
  seed?: number;
  /** Per request, in ms; longer counts as a hang. Default 15 000. */
  timeoutMs?: number;
  /** Requests in flight at once; default 4. */
  concurrency?: number;
}

/** The seed of this run: `FUZZ_SEED` when set, else 13 (the issue's number, so runs repeat). */
export function fuzzSeed(): number {
  const fromEnv = Number(process.env.FUZZ_SEED);
  return Number.isInteger(fromEnv) && process.env.FUZZ_SEED ? fromEnv : 13;
}

/** Requests per route: `FUZZ_RUNS` when set (scale up locally), else `fallback`. */
export function fuzzRuns(fallback = 40): number {
  const fromEnv = Number(process.env.FUZZ_RUNS);
  return Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : fallback;
}

// ---------------------------------------------------------------------------
// Routes an express app registers
// ---------------------------------------------------------------------------

interface RouterLayer {
  route?: { path: string; methods: Record<string, boolean> };
  handle?: { stack?: RouterLayer[] };
  rawPath?: unknown;
}

const joinPaths = (prefix: string, path: string) => {
  const joined = `${prefix}/${path}`.replace(/\/+/g, '/');
  return joined.length > 1 ? joined.replace(/\/$/, '') : joined;
};

/**
 * Walks an express 5 app's router stack, nested routers included.
 * @param app an express application (see {@link captureExpressApps})
 * @returns `METHOD /path` for every route, e.g. `GET /brands/:id`, sorted
 */
export function registeredRoutes(app: unknown): string[] {
  const found = new Set<string>();
  const walk = (stack: RouterLayer[], prefix: string) => {
    for (const layer of stack) {
      if (layer.route) {
        const path = joinPaths(prefix, layer.route.path);
        for (const [method, on] of Object.entries(layer.route.methods))
          if (on && method !== '_all') found.add(`${method.toUpperCase()} ${path}`);
      } else if (layer.handle?.stack) {
        const mount = typeof layer.rawPath === 'string' ? layer.rawPath : '';
        walk(layer.handle.stack, joinPaths(prefix, mount));
      }
    }
  };
  walk((app as { router: { stack: RouterLayer[] } }).router.stack, '');
  return [...found].sort();
}

/** `METHOD /path` of the fuzz's routes, sorted, to compare with {@link registeredRoutes}. */
export function fuzzedRoutes(routes: FuzzRoute[]): string[] {
  return [...new Set(routes.map((route) => `${route.method} ${joinPaths('', route.path)}`))].sort();
}

/**
 * `express.application` of the express copy the service kit builds every
 * service's app with (services/kit's own dependency, which may be another
 * copy than this workspace's).
 */
function kitExpressApplication(): object {
  const kitHttp = path.resolve(import.meta.dirname, '..', '..', 'kit', 'src', 'http.ts');
  return (createRequire(kitHttp)('express') as { application: object }).application;
}

/**
 * Records every express app created until `stop()`, so a test can walk the
 * real app's routes without the app exposing itself: call it before the
 * app starts, stop it once started.
 * @param application `express.application` of the express copy the app is
 *   built with (default: the service kit's, which every service uses)
 */
export function recordExpressApps(application: object = kitExpressApplication()): {
  apps: unknown[];
  stop(): void;
} {
  const proto = application as { init: (this: unknown) => void };
  const init = proto.init;
  const apps: unknown[] = [];
  proto.init = function recordingInit(this: unknown) {
    apps.push(this);
    init.call(this);
  };
  return {
    apps,
    stop() {
      proto.init = init;
    },
  };
}

// ---------------------------------------------------------------------------
// Generators
// ---------------------------------------------------------------------------

const short = (text: string, max = 60) =>
  text.length > max ? `${text.slice(0, max)}…(${text.length})` : text;

/** Control characters, NUL, DEL, lone surrogates and a few look-alikes, mixed with letters. */
const controlCharacter = fc.oneof(
  fc.integer({ min: 0, max: 0x1f }).map((code) => String.fromCharCode(code)),
  fc.constantFrom('\u0000', '\u007f', '\u0085', '\u2028', '\ud800', '\udfff', '\ufeff', '\u202e'),
);
const controlString = fc
  .array(fc.oneof(controlCharacter, fc.constantFrom('a', 'b', '@', '.', ' ')), {
    minLength: 1,
    maxLength: 24,
  })
  .map((parts) => parts.join(''));

type Labelled = [label: string, value: unknown];
const kindOf =
  (kind: string) =>
  (arbitrary: fc.Arbitrary<Labelled>): fc.Arbitrary<[string, string, unknown]> =>
    arbitrary.map(([label, value]) => [kind, label, value]);

/** A value of the wrong kind for a field: [kind of oddity, label, value]. */
function wrongValue(marker: string, baseLeaf: unknown): fc.Arbitrary<[string, string, unknown]> {
  const wrongType = [
    fc.oneof(fc.integer(), fc.double(), fc.constant(-0)).map<Labelled>((n) => [`number ${n}`, n]),
    fc.constant<Labelled>(['null', null]),
    fc
      .array(fc.oneof(fc.integer(), fc.string()), { maxLength: 4 })
      .map<Labelled>((a) => ['array', a]),
    fc
      .dictionary(fc.string({ maxLength: 6 }), fc.string({ maxLength: 6 }), { maxKeys: 3 })
      .map<Labelled>((o) => ['object', o]),
    fc
      .constantFrom('__proto__', 'constructor', 'toString')
      .map<Labelled>((key) => [
        `object with key ${key}`,
        JSON.parse(`{"${key}":{"polluted":true}}`),
      ]),
  ];
  // Booleans only where a boolean is wrong (flipping a real flag is not malformed).
  if (typeof baseLeaf !== 'boolean')
    wrongType.push(fc.boolean().map<Labelled>((b) => [`boolean ${b}`, b]));
  return fc.oneof(
    kindOf('wrong JSON type')(fc.oneof(...wrongType)),
    kindOf('control characters / NUL')(
      fc.oneof(
        controlString.map<Labelled>((s) => [`control characters ${JSON.stringify(s)}`, s]),
        controlString.map<Labelled>((s) => [
          'e-mail with control characters',
          `${marker}${s}@example.test`.replace(/\s/g, ''),
        ]),
        controlString.map<Labelled>((s) => ['name with NUL', `${marker}\u0000${s}`]),
      ),
    ),
    kindOf('10k–200k character string')(
      fc
        .tuple(fc.integer({ min: 10_000, max: 200_000 }), fc.constantFrom('a', 'é', '\u0000', '😀'))
        .map<Labelled>(([length, char]) => [
          `${length} × ${JSON.stringify(char)}`,
          char.repeat(Math.ceil(length / char.length)),
        ]),
    ),
    kindOf('over-long well-formed value')(
      fc.oneof(
        fc
          .integer({ min: 65, max: 40_000 })
          .map<Labelled>((length) => [
            `${length}-character well-formed e-mail`,
            `${marker}${'a'.repeat(length)}@example.test`,
          ]),
        fc
          .integer({ min: 20, max: 5_000 })
          .map<Labelled>((length) => [
            `${length}-character name`,
            `${marker}${'a'.repeat(length)}`,
          ]),
      ),
    ),
    kindOf('edge value')(
      fc.constantFrom<Labelled>(
        ['empty string', ''],
        ['blank string', '   '],
        ['string "null"', 'null'],
        ['string "true"', 'true'],
        ['huge number', 1e308],
        ['big integer text', '99999999999999999999999'],
      ),
    ),
    kindOf('nested value')(
      fc
        .integer({ min: 100, max: 3_000 })
        .map<Labelled>((depth) => [`array nested ${depth} deep`, nestedValue(depth)]),
    ),
  );
}

function nestedValue(depth: number): unknown {
  let value: unknown = [];
  for (let level = 1; level < depth; level++) value = [value];
  return value;
}

/** Every leaf (and inner object) of a JSON value, as key paths. */
function pathsOf(value: unknown, prefix: string[] = []): string[][] {
  if (value === null || typeof value !== 'object') return [prefix];
  const inner = Object.entries(value as Record<string, unknown>).flatMap(([key, child]) =>
    pathsOf(child, [...prefix, key]),
  );
  return prefix.length > 0 ? [prefix, ...inner] : inner;
}

const leafAt = (value: unknown, path: string[]) =>
  path.reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], value);

function withValueAt(value: unknown, path: string[], replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const [key, ...rest] = path as [string, ...string[]];
  const copy = { ...(value as Record<string, unknown>) };
  copy[key] = withValueAt(copy[key], rest, replacement);
  return copy;
}

const json = (value: unknown) => Buffer.from(JSON.stringify(value) ?? 'null');

/**
 * Put `%UNIQUE%` into a route's base body where a value must differ per
 * request (a username, an e-mail), so each request can get past the
 * uniqueness checks to the code behind them.
 */
export const UNIQUE = '%UNIQUE%';
const uniqueText = fc.integer({ min: 0, max: 2 ** 31 - 1 }).map((n) => n.toString(36));
const withUnique = (body: Buffer, unique: string) =>
  Buffer.from(body.toString('utf8').replaceAll(UNIQUE, unique));
const jsonHeaders = { 'content-type': 'application/json' };

/** The base body with one or two fields replaced by wrong values. */
function mutatedJson(base: unknown, marker: string): fc.Arbitrary<FuzzPayload> {
  const paths = pathsOf(base);
  if (paths.length === 0 || (paths.length === 1 && paths[0]!.length === 0))
    return wrongValue(marker, undefined).map(([kind, label, value]) => ({
      kind,
      label: `body ${label}`,
      headers: jsonHeaders,
      body: json({ value }),
    }));
  const one = fc.constantFrom(...paths).chain((path) =>
    wrongValue(marker, leafAt(base, path)).map(([kind, label, value]) => ({
      path,
      kind,
      label,
      value,
    })),
  );
  return fc
    .tuple(fc.array(one, { minLength: 1, maxLength: 2 }), uniqueText)
    .map(([changes, unique]) => {
      let body = base;
      for (const change of changes) body = withValueAt(body, change.path, change.value);
      return {
        kind: [...new Set(changes.map((change) => change.kind))].sort().join(' + '),
        label: changes
          .map((change) => `${change.path.join('.')}=${short(change.label)}`)
          .join(', '),
        headers: jsonHeaders,
        body: withUnique(json(body), unique),
      };
    });
}

/** Nesting as raw JSON text (never built as an object: JSON.stringify would overflow first). */
const deepJson: fc.Arbitrary<Draft> = fc
  .tuple(fc.integer({ min: 1_000, max: 20_000 }), fc.constantFrom('array', 'object', 'in-field'))
  .map(([depth, kind]) => {
    const text =
      kind === 'array'
        ? `${'['.repeat(depth)}${']'.repeat(depth)}`
        : kind === 'object'
          ? `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`
          : `{"email":${'['.repeat(depth)}"x"${']'.repeat(depth)},"data":${'['.repeat(depth)}${']'.repeat(depth)}}`;
    return {
      label: `JSON nested ${depth} deep (${kind})`,
      headers: jsonHeaders,
      body: Buffer.from(text),
    };
  });

const malformedJson = (base: unknown): fc.Arbitrary<Draft> => {
  const baseText = JSON.stringify(base ?? { a: 1 });
  return fc
    .oneof(
      fc
        .integer({ min: 1, max: Math.max(1, baseText.length - 1) })
        .map((cut) => [`JSON cut at ${cut}`, Buffer.from(baseText.slice(0, cut))] as const),
      fc
        .constantFrom(
          '{',
          '{"a":}',
          '{"a":1,}',
          "{'a':1}",
          '[1,2',
          'NaN',
          'undefined',
          '{"a":1}{"b":2}',
          '{"a":"\\u00"}',
          '{"a":"\\ud800"}',
          '\u0000',
          '"\u0000"',
          'null',
          '"string"',
          '12',
          'true',
          '{"__proto__":{"admin":true}}',
        )
        .map((text) => [`JSON text ${JSON.stringify(text)}`, Buffer.from(text)] as const),
      fc.constant([
        `BOM + JSON`,
        Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(baseText)]),
      ] as const),
      fc.constant([
        `invalid UTF-8 in JSON`,
        Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc0, 0x80, 0x22, 0x7d]),
      ] as const),
      fc
        .string({ maxLength: 40 })
        .map((text) => [`text ${JSON.stringify(text)}`, Buffer.from(text)] as const),
    )
    .map(([label, body]) => ({ label, headers: jsonHeaders, body }));
};

const contentTypes: fc.Arbitrary<Draft> = fc
  .tuple(
    fc.constantFrom(
      'text/plain',
      'application/x-www-form-urlencoded',
      'application/xml',
      'application/json; charset=utf-16',
      'application/json; charset=latin1',
      'application/json; charset=utf-7',
      'application/json; charset=bogus-charset',
      'application/json; charset=',
      'application/vnd.api+json',
      'application/json, text/plain',
      '*/*',
      'multipart/form-data',
      'multipart/form-data; boundary=x',
      ';;;',
      '',
    ),
    fc.constantFrom('{"email":"a@example.test"}', 'a=b&c[d]=e&c[d]=f', '<a>1</a>', ''),
  )
  .map(([type, text]): Draft => ({
    label: `content-type ${JSON.stringify(type)} with ${JSON.stringify(short(text, 20))}`,
    headers: type === '' ? {} : { 'content-type': type },
    body: Buffer.from(text),
  }));

const encodings = (base: unknown): fc.Arbitrary<Draft> => {
  const text = json(base ?? { a: 1 });
  return fc
    .oneof(
      fc.constant(['gzip', 'gzip', gzipSync(text)] as const),
      fc.constant(['deflate', 'deflate', deflateSync(text)] as const),
      fc
        .integer({ min: 1, max: 20 })
        .map(
          (cut) => [`gzip cut by ${cut} bytes`, 'gzip', gzipSync(text).subarray(0, -cut)] as const,
        ),
      fc.constant(['not gzip at all', 'gzip', Buffer.from('definitely not gzip')] as const),
      fc.constant([
        'deflate bytes that are not',
        'deflate',
        Buffer.from([0x78, 0x9c, 0xff, 0x00]),
      ] as const),
      fc
        .integer({ min: 1, max: 20 })
        .map(
          (megabytes) =>
            [
              `gzip inflating to ${megabytes} MB`,
              'gzip',
              gzipSync(
                Buffer.concat([
                  Buffer.from('{"a":"'),
                  Buffer.alloc(megabytes * 1024 * 1024, 0x61),
                  Buffer.from('"}'),
                ]),
              ),
            ] as const,
        ),
      fc
        .constantFrom('br', 'zstd', 'compress', 'x-bogus', 'gzip, gzip', 'identity, gzip', 'GZIP')
        .map((encoding) => [`content-encoding ${encoding}`, encoding, text] as const),
    )
    .map(([label, encoding, body]) => ({
      label,
      headers: { ...jsonHeaders, 'content-encoding': encoding },
      body,
    }));
};

/** The smallest valid PNG (1×1). */
export const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5b0e1a10000000049454e44ae426082',
  'hex',
);

interface Part {
  name: string;
  filename?: string;
  type?: string;
  content: Buffer;
}

function multipartBody(boundary: string, parts: Part[], close = true): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename === undefined ? '' : `; filename="${part.filename}"`}`;
    chunks.push(
      Buffer.from(
        `--${boundary}\r\ncontent-disposition: ${disposition}\r\n${part.type ? `content-type: ${part.type}\r\n` : ''}\r\n`,
      ),
      part.content,
      Buffer.from('\r\n'),
    );
  }
  if (close) chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

const multipartPayloads: fc.Arbitrary<Draft> = fc
  .tuple(
    fc.constantFrom(
      'valid png',
      'no closing boundary',
      'cut inside the file',
      'cut inside part headers',
      'wrong boundary',
      'no boundary parameter',
      '200-character boundary',
      'field too large',
      'too many parts',
      'file under another name',
      'no file',
      'empty body',
      'svg with script',
      'declared type mismatch',
      'filename with NUL and traversal',
      'cut mid-upload (connection closed)',
      'JSON instead of multipart',
    ),
    fc.integer({ min: 1, max: 1_000_000 }),
  )
  .map(([kind, n]) => {
    const boundary = `fuzz${n}`;
    const file: Part = { name: 'file', filename: 'a.png', type: 'image/png', content: PNG };
    const type = { 'content-type': `multipart/form-data; boundary=${boundary}` };
    const whole = multipartBody(boundary, [file]);
    const label = `multipart: ${kind}`;
    switch (kind) {
      case 'no closing boundary':
        return { label, headers: type, body: multipartBody(boundary, [file], false) };
      case 'cut inside the file':
        return { label, headers: type, body: whole.subarray(0, whole.indexOf(PNG) + 10) };
      case 'cut inside part headers':
        return { label, headers: type, body: whole.subarray(0, boundary.length + 20) };
      case 'wrong boundary':
        return {
          label,
          headers: { 'content-type': 'multipart/form-data; boundary=other' },
          body: whole,
        };
      case 'no boundary parameter':
        return { label, headers: { 'content-type': 'multipart/form-data' }, body: whole };
      case '200-character boundary': {
        const long = 'b'.repeat(200);
        return {
          label,
          headers: { 'content-type': `multipart/form-data; boundary=${long}` },
          body: multipartBody(long, [file]),
        };
      }
      case 'field too large':
        return {
          label,
          headers: type,
          body: multipartBody(boundary, [
            { name: 'name', content: Buffer.alloc(200_000, 0x61) },
            file,
          ]),
        };
      case 'too many parts':
        return {
          label,
          headers: type,
          body: multipartBody(boundary, [
            ...Array.from({ length: 50 }, (_, i) => ({ name: `f${i}`, content: Buffer.from('x') })),
            file,
          ]),
        };
      case 'file under another name':
        return {
          label,
          headers: type,
          body: multipartBody(boundary, [{ ...file, name: 'other' }]),
        };
      case 'no file':
        return {
          label,
          headers: type,
          body: multipartBody(boundary, [{ name: 'name', content: Buffer.from('a') }]),
        };
      case 'empty body':
        return { label, headers: type, body: Buffer.alloc(0) };
      case 'svg with script':
        return {
          label,
          headers: type,
          body: multipartBody(boundary, [
            {
              ...file,
              filename: 'a.svg',
              type: 'image/svg+xml',
              content: Buffer.from(
                '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
              ),
            },
          ]),
        };
      case 'declared type mismatch':
        return {
          label,
          headers: type,
          body: multipartBody(boundary, [{ ...file, filename: 'a.jpg', type: 'image/webp' }]),
        };
      case 'filename with NUL and traversal':
        return {
          label,
          headers: type,
          body: multipartBody(boundary, [{ ...file, filename: '../\u0000a.png' }]),
        };
      case 'cut mid-upload (connection closed)': {
        const big = multipartBody(boundary, [
          { ...file, content: Buffer.concat([PNG, Buffer.alloc(300_000, 1)]) },
        ]);
        return { label, headers: type, body: big, cutAfterBytes: 1000 + (n % 100_000) };
      }
      case 'JSON instead of multipart':
        return { label, headers: jsonHeaders, body: json({ file: 'a.png' }) };
      default:
        return { label, headers: type, body: whole };
    }
  });

// At most 10 KB of padding: with the largest credential (a service's and a user's access token,
// about 3 KB) the headers stay under node's 16 KB limit, past which node itself answers a bare 431.
const largeHeaders: fc.Arbitrary<Draft> = fc
  .tuple(fc.integer({ min: 2_000, max: 10_000 }), fc.integer({ min: 1, max: 60 }))
  .map(([size, count]) => ({
    label: `${count} extra headers, one of ${size} bytes`,
    headers: {
      ...jsonHeaders,
      'x-fuzz-padding': 'p'.repeat(size),
      ...Object.fromEntries(Array.from({ length: count }, (_, i) => [`x-fuzz-${i}`, `${i}`])),
    },
    body: json({}),
  }));

type Draft = Omit<FuzzPayload, 'kind'> & { kind?: string };
const tagged = (kind: string, arbitrary: fc.Arbitrary<Draft>): fc.Arbitrary<FuzzPayload> =>
  arbitrary.map((draft) => ({ ...draft, kind: draft.kind ?? kind }));

/** The route's plausible body (callables wrap theirs in `{ data }`), `%UNIQUE%` filled in. */
function baseBody(route: FuzzRoute): fc.Arbitrary<FuzzPayload> {
  if (route.body === 'none' || route.body === 'multipart')
    return fc.constant({ kind: 'plain request', label: 'no body', headers: {} });
  const base = route.callable ? { data: route.base ?? {} } : (route.base ?? {});
  return uniqueText.map((unique) => ({
    kind: 'plain request',
    label: 'the base body',
    headers: jsonHeaders,
    body: withUnique(json(base), unique),
  }));
}

/** The odd bodies of a route. */
function payloadsFor(route: FuzzRoute, marker: string): fc.Arbitrary<FuzzPayload> {
  const base = route.callable ? { data: route.base ?? {} } : route.base;
  const common = [
    { weight: 1, arbitrary: tagged('deep nesting (raw JSON)', deepJson) },
    { weight: 1, arbitrary: tagged('malformed JSON', malformedJson(base)) },
    { weight: 1, arbitrary: tagged('content type / charset', contentTypes) },
    { weight: 1, arbitrary: tagged('content encoding', encodings(base)) },
    { weight: 1, arbitrary: tagged('large headers', largeHeaders) },
    { weight: 1, arbitrary: tagged('multipart', multipartPayloads) },
    { weight: 1, arbitrary: tagged('no body', fc.constant({ label: 'no body', headers: {} })) },
  ];
  if (route.body === 'multipart')
    return fc.oneof({ weight: 8, arbitrary: tagged('multipart', multipartPayloads) }, ...common);
  if (route.body === 'none')
    return fc.oneof({ weight: 1, arbitrary: mutatedJson({ a: 'b' }, marker) }, ...common);
  return fc.oneof({ weight: 8, arbitrary: mutatedJson(base ?? {}, marker) }, ...common);
}

/** Path segments that are malformed, NUL, traversal or too long. */
const badSegment = fc.oneof(
  fc.constantFrom(
    '%ff',
    '%',
    '%zz',
    '%e0%a4',
    '%c0%80',
    '%ed%a0%80',
    '%00',
    'a%00b',
    '%2e%2e',
    '..',
    '%2f',
    'a%0d%0ab',
    '%25',
    '%F0%9F%98%80',
    '%7f',
  ),
  fc.integer({ min: 256, max: 6_000 }).map((length) => 'a'.repeat(length)),
);

const badQuery = fc.constantFrom(
  '%ff=1',
  'a=%',
  'a[b][c][d][e][f]=1',
  'ownerId=%00',
  'ownerId=%ff',
  'v=%ff',
  '&&&=',
  'a='.concat('x'.repeat(4000)),
);

const parameterNames = (route: FuzzRoute) =>
  [...route.path.matchAll(/[:*](\w+)/g)].map((match) => match[1]!);

/**
 * Fills a route's path template.
 * @param odd `segment`: one parameter malformed; `query`: a malformed query; `none`: well-formed
 */
function pathsFor(route: FuzzRoute, odd: 'segment' | 'query' | 'none'): fc.Arbitrary<string> {
  const names = parameterNames(route);
  const good = (name: string) => fc.constantFrom(...(route.params?.[name] ?? ['x']));
  const wellFormedQuery = fc.constantFrom('', ...(route.queries ?? []));
  return fc
    .tuple(
      fc.tuple(...names.map(good)),
      fc.nat(Math.max(0, names.length - 1)),
      badSegment,
      odd === 'query' ? badQuery : wellFormedQuery,
    )
    .map(([values, oddIndex, bad, search]) => {
      let path = route.path;
      names.forEach((name, index) => {
        const value = odd === 'segment' && index === oddIndex ? bad : values[index]!;
        path = path.replace(new RegExp(`[:*]${name}`), value);
      });
      return search ? `${path}?${search}` : path;
    });
}

/** True when `credential` is one `route` must accept. */
function acceptable(route: FuzzRoute, credential: FuzzCredential): boolean {
  switch (route.auth) {
    case 'none':
      return true;
    case 'user':
      return credential.user === true;
    case 'optional-user':
      return credential.user === true || !('authorization' in credential.headers);
    case 'service':
      return (
        credential.service !== undefined &&
        (!route.callers || route.callers.includes(credential.service))
      );
  }
}

/**
 * The requests of one run: `runsPerRoute` per route, drawn by fast-check
 * from `seed` (the same seed draws the same requests). Each request is odd
 * in one way only, so a failure names its cause: the body (most), a path
 * parameter, the query, or the credentials (with the plain body); the rest
 * is what the route accepts.
 */
export function drawCases(
  routes: FuzzRoute[],
  credentials: FuzzCredential[],
  options: { seed: number; runsPerRoute: number; marker: string },
): FuzzCase[] {
  return routes.flatMap((route, index) => {
    const good = credentials.filter((credential) => acceptable(route, credential));
    const bad = credentials.filter((credential) => !acceptable(route, credential));
    const goodCredential = fc.constantFrom(...good);
    const oneCase = (
      credential: fc.Arbitrary<FuzzCredential>,
      path: fc.Arbitrary<string>,
      payload: fc.Arbitrary<FuzzPayload>,
    ) => fc.record({ credential, path, payload }).map((drawn): FuzzCase => ({ route, ...drawn }));
    const oddPath = (odd: 'segment' | 'query', kind: string) =>
      oneCase(
        goodCredential,
        pathsFor(route, odd),
        baseBody(route).map((payload) => ({ ...payload, kind })),
      );
    const dimensions = [
      {
        weight: 8,
        arbitrary: oneCase(
          route.auth === 'none' ? fc.constantFrom(...credentials) : goodCredential,
          pathsFor(route, 'none'),
          payloadsFor(route, options.marker),
        ),
      },
      { weight: 1, arbitrary: oddPath('query', 'malformed query') },
    ];
    if (parameterNames(route).length > 0)
      dimensions.push({ weight: 2, arbitrary: oddPath('segment', 'malformed path parameter') });
    if (bad.length > 0)
      dimensions.push({
        weight: 2,
        arbitrary: oneCase(
          fc.constantFrom(...bad),
          pathsFor(route, 'none'),
          baseBody(route).map((payload) => ({ ...payload, kind: 'credentials refused' })),
        ),
      });
    return fc.sample(fc.oneof(...dimensions), {
      seed: options.seed + index,
      numRuns: options.runsPerRoute * (route.weight ?? 1),
    });
  });
}

// ---------------------------------------------------------------------------
// Sending and judging
// ---------------------------------------------------------------------------

interface Answer {
  /** HTTP status, or why there is none. */
  status: number | 'hang' | 'dropped' | 'cut';
  text: string;
  contentType: string;
  error?: string;
}

/** Sends one request with node:http (exact bytes, raw path), never following redirects. */
function send(baseUrl: string, fuzzCase: FuzzCase, timeoutMs: number): Promise<Answer> {
  const url = new URL(baseUrl);
  const { payload } = fuzzCase;
  return new Promise((resolve) => {
    let done = false;
    const finish = (answer: Answer) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(answer);
    };
    const headers: Record<string, string> = {
      ...payload.headers,
      ...fuzzCase.credential.headers,
      connection: 'close',
    };
    if (payload.body) headers['content-length'] = String(payload.body.length);
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: url.port,
        method: fuzzCase.route.method,
        path: fuzzCase.path,
        headers,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          if (size < 64 * 1024) chunks.push(chunk);
          size += chunk.length;
        });
        res.on('end', () =>
          finish({
            status: res.statusCode ?? 0,
            text: Buffer.concat(chunks).toString('utf8'),
            contentType: String(res.headers['content-type'] ?? ''),
          }),
        );
        res.on('error', (error) =>
          finish({
            status: res.statusCode ?? 'dropped',
            text: Buffer.concat(chunks).toString('utf8'),
            contentType: '',
            error: error.message,
          }),
        );
      },
    );
    const timer = setTimeout(() => {
      finish({ status: 'hang', text: '', contentType: '' });
      req.destroy();
    }, timeoutMs);
    req.on('error', (error) => {
      // A server that answers early and closes while we still send: the answer may still be read.
      if (payload.cutAfterBytes !== undefined) finish({ status: 'cut', text: '', contentType: '' });
      else finish({ status: 'dropped', text: '', contentType: '', error: error.message });
    });
    if (payload.cutAfterBytes !== undefined && payload.body) {
      req.write(payload.body.subarray(0, payload.cutAfterBytes), () => {
        setTimeout(() => {
          req.destroy();
          finish({ status: 'cut', text: '', contentType: '' });
        }, 50);
      });
      return;
    }
    req.end(payload.body);
  });
}

/** What is wrong with an answer, or undefined when it is fine. */
function judge(fuzzCase: FuzzCase, answer: Answer): { cause: string; detail: string } | undefined {
  const { status } = answer;
  if (status === 'cut') return undefined;
  if (status === 'hang') return { cause: 'no answer (hang)', detail: '' };
  if (status === 'dropped')
    return { cause: 'connection dropped without an answer', detail: answer.error ?? '' };
  const detail = short(answer.text.replace(/\s+/g, ' '), 160);
  if (status >= 500) return { cause: `${status} ${errorCodeOf(answer.text) ?? ''}`.trim(), detail };
  if (status < 400 && !acceptable(fuzzCase.route, fuzzCase.credential))
    return {
      cause: `${status} with credentials the route must refuse`,
      detail,
    };
  if (status >= 400) {
    const shapeProblem = errorShapeProblem(answer, fuzzCase.route.callable === true);
    if (shapeProblem) return { cause: `${status} ${shapeProblem}`, detail };
  }
  return undefined;
}

function errorCodeOf(text: string): string | undefined {
  try {
    const code = (JSON.parse(text) as { error?: { code?: unknown } }).error?.code;
    return typeof code === 'string' ? code : undefined;
  } catch {
    return undefined;
  }
}

/** Checks the docs/api.md error shape; returns what is wrong, or undefined. */
function errorShapeProblem(answer: Answer, callable: boolean): string | undefined {
  if (!answer.contentType.includes('application/json'))
    return `answered ${answer.contentType || 'no content type'}, not JSON`;
  let body: { error?: { code?: unknown; message?: unknown; status?: unknown } };
  try {
    body = JSON.parse(answer.text) as typeof body;
  } catch {
    return 'body is not JSON';
  }
  const error = body.error;
  if (!error || typeof error.code !== 'string' || !error.code) return 'body without error.code';
  if (typeof error.message !== 'string' || !error.message.trim()) return 'body without a message';
  if (/\n\s+at /.test(error.message)) return 'message carries a stack trace';
  if (callable && (typeof error.status !== 'string' || !error.status))
    return 'callable error without error.status';
  return undefined;
}

async function healthy(baseUrl: string, path: string): Promise<boolean> {
  try {
    const response = await fetch(`${baseUrl}${path}`, { signal: AbortSignal.timeout(5_000) });
    await response.arrayBuffer();
    return response.status === 200;
  } catch {
    return false;
  }
}

const describeCase = (fuzzCase: FuzzCase) =>
  `${fuzzCase.credential.label} | ${short(fuzzCase.path, 80)} | ${fuzzCase.payload.label}`;

/**
 * Sends every drawn request and judges the answers. Uncaught exceptions
 * while it runs are recorded through `uncaughtExceptionMonitor` (which does
 * not handle them: they still fail the test that is running).
 * @returns the report; the caller asserts it (see {@link assertFuzzClean})
 */
export async function runFuzz(options: FuzzOptions): Promise<FuzzReport> {
  const seed = options.seed ?? fuzzSeed();
  const runsPerRoute = options.runsPerRoute ?? fuzzRuns();
  const timeoutMs = options.timeoutMs ?? 15_000;
  const startedAt = Date.now();
  const cases = drawCases(options.routes, options.credentials, {
    seed,
    runsPerRoute,
    marker: options.marker,
  });
  const histogram: Record<string, number> = {};
  const failures: FuzzFailure[] = [];
  const inFlight = new Set<FuzzCase>();
  const hangsPerRoute = new Map<FuzzRoute, number>();
  const routeName = (route: FuzzRoute) => `${route.method} ${route.path}`;

  const monitor = (error: Error) => {
    failures.push({
      route:
        [...new Set([...inFlight].map((fuzzCase) => routeName(fuzzCase.route)))].join(' or ') ||
        '(between requests)',
      cause: `uncaught exception: ${short(String(error?.message ?? error), 120)}`,
      kind:
        [...new Set([...inFlight].map((fuzzCase) => fuzzCase.payload.kind))].join(' or ') || '-',
      input: [...inFlight].map(describeCase).join(' || '),
      detail: short(String(error?.stack ?? ''), 300),
    });
  };
  process.on('uncaughtExceptionMonitor', monitor);
  try {
    let next = 0;
    const worker = async () => {
      while (next < cases.length) {
        const fuzzCase = cases[next++]!;
        // A route that hangs twice would hang on: count the rest as not sent.
        if ((hangsPerRoute.get(fuzzCase.route) ?? 0) >= 2) {
          histogram.skipped = (histogram.skipped ?? 0) + 1;
          continue;
        }
        inFlight.add(fuzzCase);
        const answer = await send(options.baseUrl, fuzzCase, timeoutMs);
        inFlight.delete(fuzzCase);
        histogram[String(answer.status)] = (histogram[String(answer.status)] ?? 0) + 1;
        if (answer.status === 'hang')
          hangsPerRoute.set(fuzzCase.route, (hangsPerRoute.get(fuzzCase.route) ?? 0) + 1);
        const verdict = judge(fuzzCase, answer);
        if (verdict)
          failures.push({
            route: routeName(fuzzCase.route),
            kind: fuzzCase.payload.kind,
            input: describeCase(fuzzCase),
            ...verdict,
          });
      }
    };
    await Promise.all(Array.from({ length: options.concurrency ?? 4 }, worker));
    if (!(await healthy(options.baseUrl, options.healthPath)))
      failures.push({
        route: `GET ${options.healthPath}`,
        cause: 'the server no longer answers after the run',
        kind: 'after the run',
        input: '',
        detail: '',
      });
  } finally {
    process.off('uncaughtExceptionMonitor', monitor);
  }
  return {
    name: options.name,
    seed,
    runsPerRoute,
    requests: cases.length - (histogram.skipped ?? 0),
    histogram,
    failures,
    durationMs: Date.now() - startedAt,
  };
}

/** `fuzz bff (seed 13, 40 per route, 31 s): 760 requests — 200: 50, 400: 600, …` */
export function summary(report: FuzzReport): string {
  const statuses = Object.entries(report.histogram)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([status, count]) => `${status}: ${count}`)
    .join(', ');
  return `fuzz ${report.name} (seed ${report.seed}, ${report.runsPerRoute} per route, ${Math.round(report.durationMs / 1000)} s): ${report.requests} requests — ${statuses}`;
}

/**
 * The failures grouped by route and cause, each group with its count and
 * up to two example inputs (credential | path | body) and answers.
 */
export function failureReport(report: FuzzReport): string {
  const groups = new Map<string, FuzzFailure[]>();
  for (const failure of report.failures) {
    const key = `${failure.route} → ${failure.cause} ← ${failure.kind}`;
    groups.set(key, [...(groups.get(key) ?? []), failure]);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, failures]) =>
      [
        `✗ ${key} (${failures.length}×)`,
        ...failures
          .slice(0, 2)
          .map(
            (failure) =>
              `    input: ${failure.input}${failure.detail ? `\n    answer: ${failure.detail}` : ''}`,
          ),
      ].join('\n'),
    )
    .join('\n');
}

// ---------------------------------------------------------------------------
// Credentials and clean-up
// ---------------------------------------------------------------------------

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * The credentials every fuzz draws from: none, garbage, forged (alg none,
 * HS256 with a guessed key, a tampered signature), an ID token, the users'
 * access tokens, and each calling service's token right, tampered and misplaced.
 * @param tokens.users access tokens by label (the first is used for the forged ones)
 * @param tokens.idToken an ID token of a real user (never an access token)
 * @param tokens.serviceTokens access tokens of calling services by caller (e.g. `{ bff: … }`),
 *   for apps with internal routes (a route takes those its `callers` name)
 */
export function fuzzCredentials(tokens: {
  users: Record<string, string>;
  idToken: string;
  serviceTokens?: Record<string, string>;
}): FuzzCredential[] {
  const [firstLabel, first] = Object.entries(tokens.users)[0] ?? ['user', 'x.e30.x'];
  const claims = JSON.parse(
    Buffer.from(first.split('.')[1] ?? '', 'base64url').toString() || '{}',
  ) as object;
  const unsigned = `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url(claims)}`;
  const hsInput = `${base64url({ alg: 'HS256', typ: 'JWT' })}.${base64url(claims)}`;
  const hs256 = `${hsInput}.${createHmac('sha256', 'secret').update(hsInput).digest('base64url')}`;
  const tampered = `${first.slice(0, -6)}${first.slice(-6) === 'AAAAAA' ? 'BBBBBB' : 'AAAAAA'}`;
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const credentials: FuzzCredential[] = [
    { label: 'no credentials', headers: {} },
    { label: 'garbage bearer', headers: bearer('not-a-token') },
    { label: 'empty bearer', headers: { authorization: 'Bearer ' } },
    { label: 'basic auth', headers: { authorization: 'Basic YWRtaW46YWRtaW4=' } },
    { label: 'forged token (alg none)', headers: bearer(`${unsigned}.`) },
    { label: 'forged token (HS256, guessed key)', headers: bearer(hs256) },
    { label: `${firstLabel} token with a tampered signature`, headers: bearer(tampered) },
    { label: '6 KB bearer', headers: bearer('a'.repeat(6_000)) },
    { label: 'ID token', headers: bearer(tokens.idToken) },
    ...Object.entries(tokens.users).map(([label, token]) => ({
      label: `${label} access token`,
      headers: bearer(token),
      user: true,
    })),
  ];
  const services = Object.entries(tokens.serviceTokens ?? {});
  for (const [caller, token] of services)
    credentials.push(
      {
        label: `${caller} service token`,
        headers: { [INTERNAL_TOKEN_HEADER]: token },
        service: caller,
      },
      {
        label: `${caller} service token + ${firstLabel} access token`,
        headers: { [INTERNAL_TOKEN_HEADER]: token, ...bearer(first) },
        user: true,
        service: caller,
      },
    );
  const [firstService] = services;
  if (firstService) {
    const [caller, token] = firstService;
    const tamperedService = `${token.slice(0, -6)}${token.slice(-6) === 'AAAAAA' ? 'BBBBBB' : 'AAAAAA'}`;
    credentials.push(
      {
        label: `${caller} service token with a tampered signature`,
        headers: { [INTERNAL_TOKEN_HEADER]: tamperedService },
      },
      { label: 'garbage service token', headers: { [INTERNAL_TOKEN_HEADER]: 'not-a-token' } },
      { label: 'access token as service token', headers: { [INTERNAL_TOKEN_HEADER]: first } },
      { label: `${caller} service token as bearer`, headers: bearer(token) },
    );
  }
  return credentials;
}

/**
 * Signs a user in (password grant of raly-bff-login, scope openid) for their ID token.
 * @returns the ID token (a JWT of type `ID`, never to be taken for an access token)
 */
export async function idTokenOf(
  stack: TestStack,
  email: string,
  password: string,
): Promise<string> {
  const tokens = (await passwordGrant(stack, email, password)) as { id_token?: string };
  if (!tokens.id_token) throw new Error(`no ID token for ${email}`);
  return tokens.id_token;
}

/**
 * Deletes the Keycloak users a fuzz run created (their e-mails carry `marker`).
 * @returns how many were deleted
 */
export async function deleteFuzzUsers(stack: TestStack, marker: string): Promise<number> {
  const token = await identityServiceToken(stack);
  const admin = `${stack.keycloakUrl}/admin/realms/${stack.realm}/users`;
  const headers = { authorization: `Bearer ${token}` };
  const found = await fetch(`${admin}?${new URLSearchParams({ search: marker, max: '1000' })}`, {
    headers,
  });
  if (!found.ok) throw new Error(`searching users of ${marker}: HTTP ${found.status}`);
  const users = (await found.json()) as { id: string }[];
  for (const user of users) await fetch(`${admin}/${user.id}`, { method: 'DELETE', headers });
  return users.length;
}

/**
 * Asserts that `routes` lists exactly the routes the recorded apps register
 * (of the apps recorded, those that register any route of the list).
 * @throws AssertionError naming the routes not fuzzed (or listed but gone)
 */
export function assertCoversEveryRoute(apps: unknown[], routes: FuzzRoute[]): void {
  const listed = new Set(fuzzedRoutes(routes));
  // Of several apps started together (a test system), the ones this list is about (the probes
  // and /metrics of every app tell nothing).
  const shared = (route: string) => route.includes(' /health') || route.endsWith(' /metrics');
  const mine = apps
    .map(registeredRoutes)
    .filter((registered) => registered.some((route) => !shared(route) && listed.has(route)));
  assert.ok(mine.length > 0, 'no express app with these routes was recorded while it started');
  const registered = [...new Set(mine.flat())].sort();
  assert.deepEqual(fuzzedRoutes(routes), registered, 'the fuzz must list every registered route');
}

/**
 * Runs the fuzz, logs the summary (and the grouped failures) and asserts
 * there were none.
 * @param log where the summary goes, e.g. console.log (vitest shows it under the test)
 * @throws AssertionError listing every failure, grouped by route and cause
 */
export async function assertFuzzClean(
  options: FuzzOptions,
  log: (line: string) => void,
): Promise<FuzzReport> {
  const report = await runFuzz(options);
  log(summary(report));
  const failures = failureReport(report);
  for (const line of failures.split('\n').filter(Boolean)) log(line);
  assert.equal(
    report.failures.length,
    0,
    `${report.failures.length} of ${report.requests} fuzzed requests failed (FUZZ_SEED=${report.seed}):\n${failures}`,
  );
  return report;
}

/** What {@link describeFuzz} needs once the app runs (read when its tests start). */
export interface FuzzSubject {
  /** The express apps recorded while it started (see {@link recordExpressApps}). */
  apps: unknown[];
  options: FuzzOptions;
}

/**
 * Registers the two fuzz tests of an app: its route list is every route it
 * registers, and the fuzz over them finds nothing.
 * @param subject e.g. `identity-profile`, `the BFF`
 * @param current the apps and options, filled in by the file's `before` hooks
 * @param hooks registers `before`/`after` hooks inside the suite (hook helpers such as
 *   `useIdentityService`), so they run in order before its tests
 */
export function describeFuzz(
  subject: string,
  current: () => FuzzSubject,
  hooks: () => void = () => undefined,
): void {
  describe(`${subject} under fuzzed requests`, () => {
    hooks();
    test(`when the fuzz lists its routes, then they are every route ${subject} registers`, () => {
      const { apps, options } = current();
      assertCoversEveryRoute(apps, options.routes);
    });

    test(`when every route of ${subject} gets malformed, oversized, nested, control-character and wrong-type requests, then none answers 5xx, hangs or crashes it, and every refusal carries a message`, async () => {
      await assertFuzzClean(current().options, (line) => console.log(line));
    });
  });
}
