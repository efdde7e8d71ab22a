/**
 * The console's reports (docs/console.md "Reports in the browser"): the open queue oldest first,
 * or the resolved reports newest resolution first ("Open" / "Resolved"), a page at a time ("Load
 * more"), kept live by the console's socket (`ConsoleApi.watchReports`): a report opened elsewhere
 * joins the open queue (once every page of it is shown, the queue being oldest first), one resolved
 * by any staff member leaves it and heads the resolved list, each report shown at the higher
 * version read or pushed. The first page is read when the tab opens, each time the socket
 * connects (what passed while it was down), when the window gets the focus back and, only while
 * the socket is down, every 15 s (REPORT_QUEUE_REFRESH_MS); a re-read replaces the list with the
 * first page. Each open report has its resolve form (outcome, a required note, "Resolve"); a
 * report resolved in this tab stays in the open queue, with its resolution, until the next read.
 * A resolved one shows the outcome, the note, the staff member and when.
 */
import { useCallback, useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import {
  REPORT_NOTE_MAX_LENGTH,
  reportOutcomes,
  reportReasonWords,
  reportResolutionDecisionSchema,
  type ReportItemKind,
  type ReportOutcome,
  type ReportRecord,
  type ReportStatus,
} from '@raly/contracts/reports';
import { Button } from '@/components/ui/button';
import { TextAreaField } from '@/components/ui/text-area-field';
import { publicUrlPrefixes } from '@/config/public-urls';
import { messageOf, type ConsoleApi } from '@/features/console/api/console-api';
import { PagedList } from '@/features/console/components/paged-list';
import { usePagedRead, type Paged } from '@/features/console/hooks/use-paged-read';

/** How often the shown queue is read again while the console's socket is down, in milliseconds. */
export const REPORT_QUEUE_REFRESH_MS = 15_000;

/** What staff read for each outcome. */
export const staffOutcomeWords: Record<ReportOutcome, string> = {
  'no-action': 'No action',
  warning: 'Warning',
  suspension: 'Suspend the account',
};

const itemKindWords: Record<ReportItemKind, string> = {
  offer: 'Offer',
  creator: 'Creator',
  brand: 'Brand',
  message: 'Message',
};

/** When a report was made or resolved, in the browser's time zone and language. */
const whenFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** The newer of two versions of a report (the first when neither is newer). */
const newerOf = (report: ReportRecord, other: ReportRecord | undefined): ReportRecord =>
  other && other.version > report.version ? other : report;

/** When a resolved report was resolved, for ordering (epoch ms; 0 while open). */
const resolvedAtOf = (report: ReportRecord) =>
  report.resolution ? Date.parse(report.resolution.at) : 0;

/**
 * The list to show: the reports read, each at its newest version known (read or pushed), those of
 * another status left out unless resolved in this tab (`kept`), plus the pushed reports of the
 * status that were not read: for the open queue (oldest first) appended when its last page is
 * shown, for the resolved list (newest resolution first) put ahead.
 * @param listed the pages read; @param pushed the newest version pushed of each report
 */
export function liveReportList(
  listed: Paged<ReportRecord>,
  pushed: ReadonlyMap<string, ReportRecord>,
  status: ReportStatus,
  kept: ReadonlySet<string>,
): Paged<ReportRecord> {
  const shown = listed.items
    .map((report) => newerOf(report, pushed.get(report.id)))
    .filter((report) => report.status === status || kept.has(report.id));
  const read = new Set(listed.items.map((report) => report.id));
  const added = [...pushed.values()].filter(
    (report) => report.status === status && !read.has(report.id),
  );
  if (status === 'resolved') {
    added.sort((a, b) => resolvedAtOf(b) - resolvedAtOf(a));
    return { items: [...added, ...shown], nextBefore: listed.nextBefore };
  }
  if (listed.nextBefore !== null) return { items: shown, nextBefore: listed.nextBefore };
  added.sort((a, b) => a.created.localeCompare(b.created));
  return { items: [...shown, ...added], nextBefore: null };
}

/** @param api the console's calls and live report queue for the signed-in staff member */
export function ReportQueue({ api }: { api: ConsoleApi }) {
  const [status, setStatus] = useState<ReportStatus>('open');
  const [connected, setConnected] = useState(false);
  const [pushed, setPushed] = useState<ReadonlyMap<string, ReportRecord>>(new Map());
  const [kept, setKept] = useState<ReadonlySet<string>>(new Set());
  const statusId = useId();
  const readPage = useCallback(
    async (before?: string) => {
      const page = await api.reports({ status, ...(before ? { before } : {}) });
      return { items: page.reports, nextBefore: page.nextBefore };
    },
    [api, status],
  );
  // A re-read of the queue that fails keeps the reports shown, with the refusal above them.
  const read = usePagedRead(readPage, { keepOnError: true });
  const { listed, setListed, readFirstPage } = read;

  /** Remembers a report's version when it is newer than the one remembered. */
  const remember = useCallback(
    (report: ReportRecord) =>
      setPushed((current) => {
        const known = current.get(report.id);
        return known && known.version >= report.version
          ? current
          : new Map(current).set(report.id, report);
      }),
    [],
  );

  useEffect(
    () => api.watchReports({ report: remember, connection: setConnected }),
    [api, remember],
  );

  useEffect(() => {
    setListed(undefined);
    readFirstPage();
    window.addEventListener('focus', readFirstPage);
    return () => window.removeEventListener('focus', readFirstPage);
  }, [readFirstPage, setListed]);

  // The read of the list shown now (another status is another read), for the socket's effect.
  const readShown = useRef(readFirstPage);
  useEffect(() => {
    readShown.current = readFirstPage;
  }, [readFirstPage]);
  useEffect(() => {
    // Connected: what was opened or resolved while the socket was down is read once.
    if (connected) return void readShown.current();
    const timer = window.setInterval(() => readShown.current(), REPORT_QUEUE_REFRESH_MS);
    return () => window.clearInterval(timer);
  }, [connected]);

  const shown = useMemo(
    () => listed && liveReportList(listed, pushed, status, kept),
    [listed, pushed, status, kept],
  );

  /** Shows a report as the BFF answered its resolution, in place until the next read. */
  const resolvedHere = (resolved: ReportRecord) => {
    setKept((current) => new Set(current).add(resolved.id));
    remember(resolved);
  };

  return (
    <section aria-labelledby="reports-heading" className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h1 id="reports-heading" className="text-2xl font-bold tracking-tight text-slate-900">
          Reports
        </h1>
        <div>
          <label htmlFor={statusId} className="block text-sm font-medium text-slate-700">
            Show
          </label>
          <select
            id={statusId}
            name="status"
            value={status}
            onChange={(event) => setStatus(event.target.value as ReportStatus)}
            className="mt-1 block rounded-md border-0 bg-white px-3 py-2 text-slate-900 shadow-sm ring-1 ring-inset ring-slate-300 focus:outline-none focus:ring-2 focus:ring-inset focus:ring-indigo-600 sm:text-sm"
          >
            <option value="open">Open</option>
            <option value="resolved">Resolved</option>
          </select>
        </div>
      </div>
      <PagedList
        read={{ ...read, listed: shown }}
        loadingLabel="Loading the reports"
        empty={status === 'open' ? 'No open reports.' : 'No resolved reports.'}
      >
        {(reports) => (
          <ul aria-label="Reports" className="space-y-4">
            {reports.map((report) => (
              <ReportEntry key={report.id} report={report} api={api} onResolved={resolvedHere} />
            ))}
          </ul>
        )}
      </PagedList>
    </section>
  );
}

/** The reported item's page when its label names it: an offer by id, a creator by @username. */
function itemUrlOf(item: ReportRecord['item']): string | undefined {
  if (item.kind === 'offer') return `/offers/${encodeURIComponent(item.id)}`;
  if (item.kind === 'creator')
    return `${publicUrlPrefixes.user}${encodeURIComponent(item.label.replace(/^@/, ''))}`;
  return undefined;
}

/** A report of the queue, the console's API, and what to do with the report once resolved. */
interface ReportProps {
  report: ReportRecord;
  api: ConsoleApi;
  onResolved: (report: ReportRecord) => void;
}

function ReportEntry({ report, api, onResolved }: ReportProps) {
  const url = itemUrlOf(report.item);
  return (
    <li
      aria-label={report.item.label}
      className="space-y-3 rounded-md bg-white p-4 text-sm shadow-sm"
    >
      <p className="font-medium text-slate-900">
        <span className="text-slate-500">{itemKindWords[report.item.kind]}: </span>
        {url ? (
          <a href={url} target="_blank" rel="noreferrer" className="text-indigo-700 underline">
            {report.item.label}
          </a>
        ) : (
          report.item.label
        )}
      </p>
      <dl className="grid grid-cols-[8rem_1fr] gap-x-4 gap-y-1 text-slate-700">
        <dt className="text-slate-500">Accused</dt>
        <dd>{itemKindWords[report.accused.kind]}</dd>
        <dt className="text-slate-500">Reason</dt>
        <dd>{reportReasonWords[report.reason].label}</dd>
        <dt className="text-slate-500">Note</dt>
        <dd className="whitespace-pre-line">{report.note || '—'}</dd>
        <dt className="text-slate-500">Reported</dt>
        <dd>
          <time dateTime={report.created}>{whenFormat.format(new Date(report.created))}</time>
        </dd>
        {report.resolution && (
          <>
            <dt className="text-slate-500">Outcome</dt>
            <dd>{staffOutcomeWords[report.resolution.outcome]}</dd>
            <dt className="text-slate-500">Resolution</dt>
            <dd className="whitespace-pre-line">{report.resolution.note}</dd>
            <dt className="text-slate-500">Resolved by</dt>
            <dd>
              {report.resolution.staff.email},{' '}
              <time dateTime={report.resolution.at}>
                {whenFormat.format(new Date(report.resolution.at))}
              </time>
            </dd>
          </>
        )}
      </dl>
      {report.status === 'open' && (
        <ResolveForm report={report} api={api} onResolved={onResolved} />
      )}
    </li>
  );
}

/** An open report's resolve form: the outcome, a required note, "Resolve"; refusals as an alert. */
function ResolveForm({ report, api, onResolved }: ReportProps) {
  const [outcome, setOutcome] = useState<ReportOutcome | undefined>();
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | undefined>();
  const name = `outcome-${report.id}`;

  const resolve = async (event: FormEvent) => {
    event.preventDefault();
    const decision = reportResolutionDecisionSchema.safeParse({ outcome, note });
    if (!decision.success) {
      setProblem(decision.error.issues[0]?.message);
      return;
    }
    setBusy(true);
    setProblem(undefined);
    try {
      onResolved(await api.resolveReport(report.id, decision.data));
    } catch (error) {
      setProblem(messageOf(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      noValidate
      onSubmit={(event) => void resolve(event)}
      aria-label={`Resolve the report on ${report.item.label}`}
      className="space-y-3 border-t border-slate-200 pt-3"
    >
      <fieldset>
        <legend className="text-sm font-medium text-slate-700">Outcome</legend>
        <div className="mt-1 flex flex-wrap gap-4">
          {reportOutcomes.map((value) => (
            <label key={value} className="flex items-center gap-2">
              <input
                type="radio"
                name={name}
                value={value}
                checked={outcome === value}
                onChange={() => setOutcome(value)}
                className="size-4 border-slate-300 text-indigo-600 focus:ring-indigo-600"
              />
              {staffOutcomeWords[value]}
            </label>
          ))}
        </div>
      </fieldset>
      <TextAreaField
        label="Resolution note"
        rows={2}
        value={note}
        length={note.length}
        maxLength={REPORT_NOTE_MAX_LENGTH}
        onChange={(event) => setNote(event.target.value)}
      />
      {problem && (
        <p role="alert" className="text-sm text-red-700">
          {problem}
        </p>
      )}
      <Button type="submit" busy={busy}>
        Resolve
      </Button>
    </form>
  );
}
