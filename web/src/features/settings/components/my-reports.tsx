/**
 * The signed-in person's own reports under Settings → Reports (docs/console.md "Reports in the
 * browser"), newest first (GET /api/reports/mine): what was reported, the reason in words, when,
 * and "Open" or the outcome staff chose (`reportOutcomeWords`) with the resolution's note. "Load
 * more" reads the page the previous one names; each page is read afresh when the page opens.
 */
import { useState } from 'react';
import { messages } from '@raly/contracts/messages';
import {
  reportOutcomeWords,
  reportReasonWords,
  type ReporterReport,
  type ReportItemKind,
} from '@raly/contracts/reports';
import { apiErrorMessage } from '@/lib/api-error';
import { useGetMyReportsQuery } from '@/lib/reports-api';
import { Button } from '@/components/ui/button';
import { Notification } from '@/components/ui/notification';
import { Spinner } from '@/components/ui/spinner';

/** What each kind of reported item is called. */
const itemKindWords: Record<ReportItemKind, string> = {
  offer: 'Offer',
  creator: 'Creator',
  brand: 'Brand',
  message: 'Message',
};

/** When a report was made or resolved, in the browser's time zone and language. */
const whenFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function MyReports() {
  // The cursors of the pages shown: the first page (undefined), then each "Load more".
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  return (
    <section aria-labelledby="my-reports-heading" className="space-y-4">
      <h2 id="my-reports-heading" className="text-lg font-semibold text-slate-900">
        Reports
      </h2>
      <p className="text-sm text-slate-600">What you reported and what our team decided.</p>
      {cursors.map((before, index) => (
        <ReportsPage
          key={before ?? ''}
          before={before}
          isLast={index === cursors.length - 1}
          onLoadMore={(next) => setCursors((current) => [...current, next])}
        />
      ))}
    </section>
  );
}

/** One page of the reports, with "Load more" under the last page while a next one is named. */
function ReportsPage({
  before,
  isLast,
  onLoadMore,
}: {
  before: string | undefined;
  isLast: boolean;
  onLoadMore: (nextBefore: string) => void;
}) {
  const { data, isLoading, error } = useGetMyReportsQuery(before, {
    refetchOnMountOrArgChange: true,
  });
  if (isLoading)
    return (
      <div className="flex justify-center py-6 text-indigo-600">
        <Spinner label="Loading your reports" className="size-6" />
      </div>
    );
  if (!data) return <Notification>{apiErrorMessage(error, messages.genericProblem)}</Notification>;
  if (before === undefined && data.reports.length === 0)
    return <p className="text-slate-600">You have not reported anything.</p>;
  return (
    <>
      <ul className="space-y-3">
        {data.reports.map((report) => (
          <ReportItem key={report.id} report={report} />
        ))}
      </ul>
      {isLast && data.nextBefore && (
        <Button variant="secondary" onClick={() => onLoadMore(data.nextBefore as string)}>
          Load more
        </Button>
      )}
    </>
  );
}

function ReportItem({ report }: { report: ReporterReport }) {
  const { resolution } = report;
  return (
    <li
      aria-label={report.item.label}
      className="space-y-1 rounded-lg bg-white p-4 text-sm shadow-sm ring-1 ring-slate-200"
    >
      <p className="font-medium text-slate-900">
        <span className="text-slate-500">{itemKindWords[report.item.kind]}: </span>
        {report.item.label}
      </p>
      <p className="text-slate-700">
        {reportReasonWords[report.reason].label} ·{' '}
        <time dateTime={report.created}>{whenFormat.format(new Date(report.created))}</time>
      </p>
      {resolution ? (
        <div>
          <p className="font-medium text-slate-900">{reportOutcomeWords[resolution.outcome]}</p>
          <p className="whitespace-pre-line text-slate-700">{resolution.note}</p>
        </div>
      ) : (
        <p className="font-medium text-amber-700">Open</p>
      )}
    </li>
  );
}
