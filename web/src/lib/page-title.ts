/** Page titles (spec §2 route guard). */
import { paths, type RouteMeta } from '@/config/paths';

export const PRODUCT_NAME = 'Raly';

/**
 * @param route the matched route's metadata (undefined when none matched)
 * @returns the document title: the route title plus ' - Raly', or just
 *   'Raly' on home and when no route carries a title
 */
export function pageTitle(route: Pick<RouteMeta, 'path' | 'title'> | undefined): string {
  if (!route || route.path === paths.home.path) return PRODUCT_NAME;
  return `${route.title} - ${PRODUCT_NAME}`;
}
