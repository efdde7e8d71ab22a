/**
 * The frame of a console list read a page at a time (hooks/use-paged-read): the last refusal as an
 * alert, a spinner while the first page is read, the empty words, the items, and "Load more"
 * while the last page names a next one.
 */
import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import type { PagedRead } from '@/features/console/hooks/use-paged-read';

export interface PagedListProps<Item> {
  read: Pick<PagedRead<Item>, 'listed' | 'loading' | 'problem' | 'loadMore'>;
  /** What the spinner says while the first page is read. */
  loadingLabel: string;
  /** What shows when the first page is empty. */
  empty: string;
  /** The items read so far, shown together. */
  children: (items: Item[]) => ReactNode;
}

export function PagedList<Item>({
  read: { listed, loading, problem, loadMore },
  loadingLabel,
  empty,
  children,
}: PagedListProps<Item>) {
  return (
    <>
      {problem && (
        <p role="alert" className="text-sm text-red-700">
          {problem}
        </p>
      )}
      {loading === 'first' && !listed && (
        <div className="flex justify-center py-8 text-indigo-600">
          <Spinner label={loadingLabel} className="size-8" />
        </div>
      )}
      {listed && listed.items.length === 0 && <p className="text-slate-600">{empty}</p>}
      {listed && listed.items.length > 0 && children(listed.items)}
      {listed?.nextBefore && (
        <Button
          variant="secondary"
          busy={loading === 'more'}
          // While the first page is read again, the next page of the list shown would not follow it.
          disabled={loading !== undefined}
          onClick={() => void loadMore()}
        >
          Load more
        </Button>
      )}
    </>
  );
}
