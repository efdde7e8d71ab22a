/**
 * What a page shows for one read of the BFF: the page spinner while it
 * loads, the returned error text (or `fallback`) when it failed, else the
 * page with the data.
 */
import type { ReactNode } from 'react';
import { apiErrorMessage } from '@/lib/api-error';
import { Notification } from '@/components/ui/notification';
import { PageSpinner } from '@/components/ui/spinner';

export interface QueryResultProps<T> {
  /** The RTK Query hook's result (or the fields of it used here). */
  result: { data?: T; isLoading: boolean; error?: unknown };
  /** The message when the read failed without a text of its own. */
  fallback: string;
  /** The failure inside a page's own frame (false) or as a page of its own (true, default). */
  framed?: boolean;
  children: (data: NonNullable<T>) => ReactNode;
}

export function QueryResult<T>({ result, fallback, framed = true, children }: QueryResultProps<T>) {
  if (result.isLoading) return <PageSpinner />;
  if (result.data !== undefined && result.data !== null) return children(result.data);
  const notice = <Notification>{apiErrorMessage(result.error, fallback)}</Notification>;
  return framed ? <div className="mx-auto max-w-2xl px-4 py-10">{notice}</div> : notice;
}
