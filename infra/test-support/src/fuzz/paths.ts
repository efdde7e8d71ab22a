/** A route's path filled in: well-formed, with one malformed parameter, or with a malformed query. */
import fc from 'fast-check';
import type { FuzzRoute } from './types';

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

export const parameterNames = (route: FuzzRoute) =>
  [...route.path.matchAll(/[:*](\w+)/g)].map((match) => match[1]!);

/**
 * Fills a route's path template.
 * @param odd `segment`: one parameter malformed; `query`: a malformed query; `none`: well-formed
 */
export function pathsFor(
  route: FuzzRoute,
  odd: 'segment' | 'query' | 'none',
): fc.Arbitrary<string> {
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

/**
 * Segments a URL resolver reads as "here", "the parent" or nothing: an app
 * that puts such a parameter into another URL names another route
 * (`/offers/.` becomes `/offers/`), so every app refuses them with a 4xx.
 */
export const dotSegments = ['.', '..', '%2e', '%2E%2E', ''] as const;

/** The route's path with parameter `name` set to `segment` and the others well-formed. */
export function pathWithSegment(route: FuzzRoute, name: string, segment: string): string {
  let path = route.path;
  for (const other of parameterNames(route)) {
    const value = other === name ? segment : (route.params?.[other]?.[0] ?? 'x');
    path = path.replace(new RegExp(`[:*]${other}`), value);
  }
  return path;
}
