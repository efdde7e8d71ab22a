/**
 * A console list read a page at a time (the audit log, the reports): the first page on
 * `readFirstPage`, the next one the last page names on `loadMore`, appended. The newest read wins:
 * an answer to an older read (another search, status or page) is dropped.
 */
import { useCallback, useRef, useState } from 'react';
import { messageOf } from '@/features/console/api/console-api';

/** A page as a list shows it: its items and the next page's cursor, or null after the last. */
export interface Paged<Item> {
  items: Item[];
  nextBefore: string | null;
}

/**
 * @param readPage reads the page after the `before` cursor (the first page without one); a new
 *   function (e.g. for new filters) is a new list
 * @param keepOnError true: a failed first-page read keeps the list shown (a re-read of the same
 *   list); false: it empties it
 * @returns the list read so far, what is being read, the last refusal's message, and the reads
 */
export function usePagedRead<Item>(
  readPage: (before?: string) => Promise<Paged<Item>>,
  { keepOnError = false }: { keepOnError?: boolean } = {},
) {
  const [listed, setListed] = useState<Paged<Item> | undefined>();
  const [loading, setLoading] = useState<'first' | 'more' | undefined>('first');
  const [problem, setProblem] = useState<string | undefined>();
  const latestRead = useRef(0);

  const readFirstPage = useCallback(() => {
    const read = ++latestRead.current;
    setLoading('first');
    if (!keepOnError) setProblem(undefined);
    readPage().then(
      (page) => {
        if (read !== latestRead.current) return;
        setListed(page);
        setProblem(undefined);
        setLoading(undefined);
      },
      (error: unknown) => {
        if (read !== latestRead.current) return;
        if (!keepOnError) setListed(undefined);
        setProblem(messageOf(error));
        setLoading(undefined);
      },
    );
  }, [readPage, keepOnError]);

  const nextBefore = listed?.nextBefore;
  const loadMore = useCallback(async () => {
    if (!nextBefore) return;
    const read = ++latestRead.current;
    setLoading('more');
    setProblem(undefined);
    try {
      const page = await readPage(nextBefore);
      if (read !== latestRead.current) return;
      setListed((current) => ({
        items: [...(current?.items ?? []), ...page.items],
        nextBefore: page.nextBefore,
      }));
    } catch (error) {
      if (read === latestRead.current) setProblem(messageOf(error));
    } finally {
      if (read === latestRead.current) setLoading(undefined);
    }
  }, [readPage, nextBefore]);

  return { listed, setListed, loading, problem, readFirstPage, loadMore };
}

/** What `usePagedRead` gives. */
export type PagedRead<Item> = ReturnType<typeof usePagedRead<Item>>;
