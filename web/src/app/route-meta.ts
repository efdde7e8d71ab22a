/**
 * The RouteMeta (config/paths) of the current location, found the way the
 * router finds the page: react-router's `matchRoutes` over every path of
 * config/paths, with its ranking (a static segment wins over a dynamic one,
 * '*' last). Stands in for the data router's `useMatches`, which the
 * declarative router does not have (app/router).
 */
import { matchRoutes, useLocation } from 'react-router-dom';
import { paths, type RouteMeta } from '@/config/paths';

const table = Object.values(paths).map((meta) => ({ path: meta.path, meta }));

/**
 * @param pathname a location's path, e.g. '/offers/42'
 * @returns the RouteMeta of the route that answers it ('*' for unknown paths)
 */
export function routeMetaOf(pathname: string): RouteMeta | undefined {
  const matches = matchRoutes(table, pathname);
  return matches?.[matches.length - 1]?.route.meta;
}

/** The current location's RouteMeta (call under a router). */
export function useRouteMeta(): RouteMeta | undefined {
  return routeMetaOf(useLocation().pathname);
}
