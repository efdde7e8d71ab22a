/**
 * The keyset cursors of this service's pages (the audit log, the report queue): a page's
 * `nextBefore` names its last row by `[at, id]`, base64url-encoded JSON, opaque to callers.
 */
import { Buffer } from 'node:buffer';
import { z } from 'zod';
import type { PagePosition } from '../data-access/pages';
import { moderationErrors } from './errors';

/** What a cursor holds: `[at, id]`. */
const cursorSchema = z.tuple([z.iso.datetime(), z.uuid()]);

/**
 * The opaque `nextBefore` of a page ending with the row at `at` of id `id`.
 * @param at ISO 8601 instant
 */
export function cursorOf(at: string, id: string): string {
  return Buffer.from(JSON.stringify([at, id])).toString('base64url');
}

/**
 * The position a `before` cursor names.
 * @throws AppError invalid-argument when `cursor` is not one {@link cursorOf} makes
 */
export function positionOf(cursor: string): PagePosition {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw moderationErrors.badCursor();
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw moderationErrors.badCursor();
  }
  const parsed = cursorSchema.safeParse(decoded);
  if (!parsed.success) throw moderationErrors.badCursor();
  return { at: new Date(parsed.data[0]), id: parsed.data[1] };
}

/**
 * One keyset page of a list: the rows after the one `before` names, read with one more than a
 * page to tell whether another follows.
 * @param before the cursor of the request (a previous page's `nextBefore`), if any
 * @param list reads at most `limit` rows after `after` (every row from the start without it)
 * @param atOf the instant the list is ordered by for a row (ISO 8601)
 * @returns at most `pageSize` rows, and the cursor of the last when more follow, else null
 * @throws AppError invalid-argument when `before` is no cursor {@link cursorOf} makes
 */
export async function keysetPage<Row extends { id: string }>(
  before: string | undefined,
  pageSize: number,
  list: (after: PagePosition | undefined, limit: number) => Promise<Row[]>,
  atOf: (row: Row) => string,
): Promise<{ rows: Row[]; nextBefore: string | null }> {
  const rows = await list(before === undefined ? undefined : positionOf(before), pageSize + 1);
  const page = rows.slice(0, pageSize);
  const last = page.at(-1);
  return {
    rows: page,
    nextBefore: rows.length > pageSize && last ? cursorOf(atOf(last), last.id) : null,
  };
}
