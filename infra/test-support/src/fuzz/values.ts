/** Wrong values for a JSON body's fields, and the route's base body with one or two of them swapped in. */
import fc from 'fast-check';
import type { FuzzPayload } from './types';

/** A payload before it is tagged with its kind of oddity. */
export type Draft = Omit<FuzzPayload, 'kind'> & { kind?: string };

export const short = (text: string, max = 60) =>
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

export const json = (value: unknown) => Buffer.from(JSON.stringify(value) ?? 'null');

/**
 * Put `%UNIQUE%` into a route's base body where a value must differ per
 * request (a username, an e-mail), so each request can get past the
 * uniqueness checks to the code behind them.
 */
export const UNIQUE = '%UNIQUE%';
export const uniqueText = fc.integer({ min: 0, max: 2 ** 31 - 1 }).map((n) => n.toString(36));
export const withUnique = (body: Buffer, unique: string) =>
  Buffer.from(body.toString('utf8').replaceAll(UNIQUE, unique));
export const jsonHeaders = { 'content-type': 'application/json' };

/** The base body with one or two fields replaced by wrong values. */
export function mutatedJson(base: unknown, marker: string): fc.Arbitrary<FuzzPayload> {
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
