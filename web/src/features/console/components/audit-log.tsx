/**
 * The console's audit log (docs/console.md "Audit log"): every staff action, newest first
 * (GET /api/console/audit), searched by staff e-mail, brand or creator name or id and filtered by
 * action, a page at a time ("Load more" while the BFF names a next page). Entries are facts:
 * nothing here changes one. The first page is read each time the panel opens (so after a decision
 * made in another tab) and on "Refresh", as an entry reaches the log a moment after its decision.
 */
import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import {
  AUDIT_QUERY_MAX_LENGTH,
  staffActions,
  type AuditEntry,
  type StaffAction,
} from '@raly/contracts/audit';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/text-field';
import { publicUrlPrefixes } from '@/config/public-urls';
import type { ConsoleApi } from '@/features/console/api/console-api';
import { detailWords, staffActionWords } from '@/features/console/components/audit-words';
import { PagedList } from '@/features/console/components/paged-list';
import { usePagedRead } from '@/features/console/hooks/use-paged-read';

/** The search and action the list shows, and how many times it was asked to read again. */
interface Filters {
  query: string;
  action: StaffAction | '';
  reloads: number;
}

/** The search of `filters` as the audit route takes it: only what is set. */
const searchOf = ({ query, action }: Filters) => ({
  ...(query ? { query } : {}),
  ...(action ? { action } : {}),
});

/** When an entry took effect, in the browser's time zone and language. */
const whenFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

/** @param api the console's calls for the signed-in staff member */
export function AuditLog({ api }: { api: ConsoleApi }) {
  const [query, setQuery] = useState('');
  const [filters, setFilters] = useState<Filters>({ query: '', action: '', reloads: 0 });
  const actionId = useId();
  const readPage = useCallback(
    async (before?: string) => {
      const page = await api.auditEntries({ ...searchOf(filters), ...(before ? { before } : {}) });
      return { items: page.entries, nextBefore: page.nextBefore };
    },
    [api, filters],
  );
  const read = usePagedRead(readPage);
  const { loading, readFirstPage } = read;

  useEffect(readFirstPage, [readFirstPage]);

  const search = (event: FormEvent) => {
    event.preventDefault();
    setFilters((current) => ({ ...current, query: query.trim(), reloads: current.reloads + 1 }));
  };

  return (
    <section aria-labelledby="audit-heading" className="space-y-6">
      <h1 id="audit-heading" className="text-2xl font-bold tracking-tight text-slate-900">
        Audit log
      </h1>
      <form role="search" onSubmit={search} className="flex flex-wrap items-end gap-3">
        <TextField
          label="Staff e-mail, brand or creator"
          name="query"
          value={query}
          maxLength={AUDIT_QUERY_MAX_LENGTH}
          hint="A part of a staff member's e-mail, a brand's company, a creator's username, or an id."
          onChange={(event) => setQuery(event.target.value)}
          className="min-w-64 flex-1"
        />
        <div>
          <label htmlFor={actionId} className="block text-sm font-medium text-slate-700">
            Action
          </label>
          <select
            id={actionId}
            name="action"
            value={filters.action}
            onChange={(event) =>
              setFilters((current) => ({
                ...current,
                action: event.target.value as StaffAction | '',
              }))
            }
            className="mt-1 block rounded-md border-0 bg-white px-3 py-2 text-slate-900 shadow-sm ring-1 ring-inset ring-slate-300 focus:outline-none focus:ring-2 focus:ring-inset focus:ring-indigo-600 sm:text-sm"
          >
            <option value="">Every action</option>
            {staffActions.map((action) => (
              <option key={action} value={action}>
                {staffActionWords[action]}
              </option>
            ))}
          </select>
        </div>
        <Button type="submit" busy={loading === 'first'}>
          Search
        </Button>
        <Button
          variant="secondary"
          disabled={loading !== undefined}
          onClick={() => setFilters((current) => ({ ...current, reloads: current.reloads + 1 }))}
        >
          Refresh
        </Button>
      </form>
      <PagedList read={read} loadingLabel="Loading the audit log" empty="No staff actions match.">
        {(entries) => <AuditTable entries={entries} busy={read.loading === 'first'} />}
      </PagedList>
    </section>
  );
}

const cell = 'px-4 py-3 align-top';

/** The entries as a table, newest first, read-only. */
function AuditTable({ entries, busy }: { entries: AuditEntry[]; busy: boolean }) {
  return (
    <div className="overflow-x-auto rounded-md bg-white shadow-sm">
      <table aria-label="Staff actions" aria-busy={busy || undefined} className="w-full text-sm">
        <thead className="border-b border-slate-200 text-left text-slate-600">
          <tr>
            {['When', 'Who', 'What', 'On whom', 'Why', 'Details'].map((heading) => (
              <th key={heading} scope="col" className={`${cell} font-medium`}>
                {heading}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200 text-slate-900">
          {entries.map((entry) => (
            <AuditRow key={entry.id} entry={entry} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function AuditRow({ entry }: { entry: AuditEntry }) {
  const details = detailWords(entry.details);
  return (
    <tr>
      <td className={`${cell} whitespace-nowrap`}>
        <time dateTime={entry.at}>{whenFormat.format(new Date(entry.at))}</time>
      </td>
      <td className={cell}>{entry.staff.email}</td>
      <td className={cell}>{staffActionWords[entry.action]}</td>
      <td className={cell}>
        {entry.target.kind === 'creator' ? (
          <a
            href={`${publicUrlPrefixes.user}${encodeURIComponent(entry.target.label)}`}
            target="_blank"
            rel="noreferrer"
            className="text-indigo-700 underline"
          >
            @{entry.target.label}
          </a>
        ) : (
          entry.target.label
        )}
      </td>
      <td className={`${cell} whitespace-pre-line`}>{entry.reason ?? '—'}</td>
      <td className={cell}>{details.length > 0 ? details.join(', ') : '—'}</td>
    </tr>
  );
}
