/** What happened in a collaboration, oldest first, in words (messages have their own history). */
import type { CollaborationRecord } from '@raly/contracts/collaborations';
import { formatDate } from '@/lib/offer-format';
import { timelineText } from '@/features/collaborations/utils/work';

export function TimelinePanel({
  collaboration,
}: {
  collaboration: Pick<CollaborationRecord, 'timeline' | 'deliverables' | 'cancellation'>;
}) {
  const titles = new Map(collaboration.deliverables.map(({ id, title }) => [id, title]));
  return (
    <section
      aria-labelledby="timeline-heading"
      className="rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200"
    >
      <h2 id="timeline-heading" className="text-lg font-semibold text-slate-900">
        Timeline
      </h2>
      <ol aria-label="Timeline" className="mt-4 space-y-3">
        {collaboration.timeline.map((entry, index) => (
          <li
            key={`${index}-${entry.kind}`}
            data-kind={entry.kind}
            className="border-l-2 border-indigo-200 pl-3 text-sm"
          >
            <p className="text-slate-900">{timelineText(entry, titles)}</p>
            {entry.kind === 'cancelled' && collaboration.cancellation?.reason && (
              <p className="mt-0.5 whitespace-pre-line text-slate-700">
                “{collaboration.cancellation.reason}”
              </p>
            )}
            <time dateTime={entry.at} className="text-xs text-slate-500">
              {formatDate(entry.at)}
            </time>
          </li>
        ))}
      </ol>
    </section>
  );
}
