/** The odd bodies a route gets: raw nesting, malformed JSON, content types, encodings, large headers, multipart. */
import { deflateSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { multipartPayloads } from './multipart';
import type { FuzzPayload, FuzzRoute } from './types';
import {
  json,
  jsonHeaders,
  mutatedJson,
  short,
  uniqueText,
  withUnique,
  type Draft,
} from './values';

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

const tagged = (kind: string, arbitrary: fc.Arbitrary<Draft>): fc.Arbitrary<FuzzPayload> =>
  arbitrary.map((draft) => ({ ...draft, kind: draft.kind ?? kind }));

/** The route's plausible body (callables wrap theirs in `{ data }`), `%UNIQUE%` filled in. */
export function baseBody(route: FuzzRoute): fc.Arbitrary<FuzzPayload> {
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
export function payloadsFor(route: FuzzRoute, marker: string): fc.Arbitrary<FuzzPayload> {
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
