/**
 * The one way to name a service route: a client builds the path from its
 * segments ({@link servicePath}), and every app refuses a request whose path
 * has a segment that names no resource ({@link refuseDotSegments}). A
 * segment `.` or `..` (also percent-encoded, `%2e`) would be resolved by the
 * service's router to another route (`/offers/.` is the feed `/offers/`,
 * `/offers/./applications` is `/offers/applications`), and an empty one to
 * a shorter path: both are refused with a 404, never forwarded.
 */
import type { RequestHandler } from 'express';
import { AppError } from './errors';

/** Why a segment is refused; the same words for the builder and the guard. */
const NAMELESS_SEGMENT = 'No resource is named by an empty, "." or ".." path segment.';

/** True for a segment that names no resource: empty, `.` or `..` (as decoded). */
function isNamelessSegment(segment: string): boolean {
  return segment === '' || segment === '.' || segment === '..';
}

const namelessSegment = () => new AppError('not-found', NAMELESS_SEGMENT);

/**
 * A service route's path, each segment percent-encoded:
 * `servicePath(['offers', offerId, 'applications'])` → `/offers/<offerId>/applications`.
 * @param segments the path's segments, literal or taken from a request, unencoded
 * @param query the query string's parameters, encoded by URLSearchParams
 * @throws AppError `not-found` (404) when a segment is empty, `.` or `..`
 */
export function servicePath(
  segments: readonly string[],
  query?: URLSearchParams | Record<string, string>,
): string {
  if (segments.some(isNamelessSegment)) throw namelessSegment();
  const path = `/${segments.map(encodeURIComponent).join('/')}`;
  const search = query ? new URLSearchParams(query).toString() : '';
  return search ? `${path}?${search}` : path;
}

/**
 * A service route's URL: `baseUrl` (a trailing slash is dropped) + {@link servicePath}.
 * @param baseUrl e.g. `OFFERS_URL`
 * @throws AppError `not-found` (404) when a segment is empty, `.` or `..`
 */
export function serviceUrl(
  baseUrl: string,
  segments: readonly string[],
  query?: URLSearchParams | Record<string, string>,
): string {
  return `${baseUrl.replace(/\/$/, '')}${servicePath(segments, query)}`;
}

/** A path with a `.` (raw or `%2e`) or `//` somewhere: only these are split and decoded. */
const SUSPECT_PATH = /\.|%2e|\/\//i;

/**
 * Express middleware, mounted by `createHttpApp` ahead of every app's
 * `routes` (after `beforeBody`, whose routes take no free-form ids, so the
 * BFF's callables are marked first and its GET /api/me never waits for it):
 * refuses a request whose path has a segment that names no resource — `.`,
 * `..` (raw or percent-encoded) or an empty segment before its end (a
 * trailing slash is allowed) — with a 404, so no `:id` route param is ever
 * `.`, `..` or empty. A path without a dot or `//` is passed on without
 * being split. A segment that is not valid percent-encoding is left to the
 * router (its own 400).
 */
export const refuseDotSegments: RequestHandler = (request, _response, next) => {
  const path = request.path;
  if (!SUSPECT_PATH.test(path)) {
    next();
    return;
  }
  const segments = path.split('/').slice(1);
  const refused = segments.some((segment, index) =>
    segment === '' ? index < segments.length - 1 : isNamelessSegment(decodedOrSelf(segment)),
  );
  next(refused ? namelessSegment() : undefined);
};

/** The segment percent-decoded, or as it is when its encoding is not valid. */
function decodedOrSelf(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
