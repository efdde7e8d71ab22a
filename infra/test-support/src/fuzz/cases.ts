/** Which credentials a route must accept, and the requests of one run drawn from a seed. */
import fc from 'fast-check';
import { baseBody, payloadsFor } from './bodies';
import { dotSegments, parameterNames, pathsFor, pathWithSegment } from './paths';
import type { FuzzCase, FuzzCredential, FuzzPayload, FuzzRoute } from './types';

/** True when `credential` is one `route` must accept. */
export function acceptable(route: FuzzRoute, credential: FuzzCredential): boolean {
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
 * Every path parameter of a route set to each of {@link dotSegments}, with
 * an accepted credential (a user's when the route takes one) and the base
 * body: sent by every run, not left to the draw.
 */
function dotSegmentCases(route: FuzzRoute, good: FuzzCredential[], seed: number): FuzzCase[] {
  const names = parameterNames(route);
  const credential = good.find((candidate) => candidate.user) ?? good[0];
  if (names.length === 0 || !credential) return [];
  const payloads = fc.sample(baseBody(route), {
    seed,
    numRuns: names.length * dotSegments.length,
  });
  return names.flatMap((name, nameIndex) =>
    dotSegments.map((segment, segmentIndex) => ({
      route,
      credential,
      path: pathWithSegment(route, name, segment),
      payload: {
        ...payloads[nameIndex * dotSegments.length + segmentIndex]!,
        kind: 'dot or empty path segment',
      },
    })),
  );
}

/**
 * The requests of one run: `runsPerRoute` per route, drawn by fast-check
 * from `seed` (the same seed draws the same requests), then the route's
 * dot and empty path segments. Each request is odd in one way only, so a
 * failure names its cause: the body (most), a path parameter, the query,
 * or the credentials (with the plain body); the rest is what the route
 * accepts.
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
    const drawn = fc.sample(fc.oneof(...dimensions), {
      seed: options.seed + index,
      numRuns: options.runsPerRoute * (route.weight ?? 1),
    });
    return [...drawn, ...dotSegmentCases(route, good, options.seed + index)];
  });
}
