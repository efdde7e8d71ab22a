/**
 * The console's reports (docs/console.md "Reports in the browser"): the open queue oldest first,
 * or the resolved reports newest resolution first ("Open" / "Resolved"), a page at a time ("Load
 * more"). The console has no socket, so while the tab is shown the first page is read again every
 * 15 s (REPORT_QUEUE_REFRESH_MS) and when the window gets the focus back; a re-read replaces the
 * list with the first page. Each open report has its resolve form (outcome, a required note,
 * "Resolve"); a resolved one shows the outcome, the note, the staff member and when.
 */
import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
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
import { usePagedRead } from '@/features/console/hooks/use-paged-read';

/** How often the shown queue is read again, in milliseconds. */
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

/** @param api the console's calls for the signed-in staff member */
export function ReportQueue({ api }: { api: ConsoleApi }) {
  const [status, setStatus] = useState<ReportStatus>('open');
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
  const { setListed, readFirstPage } = read;

  useEffect(() => {
    setListed(undefined);
    readFirstPage();
    const timer = window.setInterval(readFirstPage, REPORT_QUEUE_REFRESH_MS);
    window.addEventListener('focus', readFirstPage);
    return () => {
      window.clearInterval(timer);
      window.removeEventListener('focus', readFirstPage);
    };
  }, [readFirstPage, setListed]);

  /** Shows a report as the BFF answered its resolution, in place until the next read. */
  const replace = (resolved: ReportRecord) =>
    setListed(
      (current) =>
        current && {
          ...current,
          items: current.items.map((report) => (report.id === resolved.id ? resolved : report)),
        },
    );

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
        read={read}
        loadingLabel="Loading the reports"
        empty={status === 'open' ? 'No open reports.' : 'No resolved reports.'}
      >
        {(reports) => (
          <ul aria-label="Reports" className="space-y-4">
            {reports.map((report) => (
              <ReportEntry key={report.id} report={report} api={api} onResolved={replace} />
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
