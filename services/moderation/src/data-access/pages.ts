/** What the keyset pages of this service's lists have in common. */

/** The position of one row in a page's order: the next page starts after it. */
export interface PagePosition {
  /** The instant the page is ordered by (an entry's `at`, a report's `created` or resolution). */
  at: Date;
  id: string;
}
