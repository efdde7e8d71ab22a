/**
 * Reports as their reporter reads them (`ReporterReport` of @raly/contracts/reports) for the
 * web's component tests, like collaboration-records.ts.
 */
import { randomUUID } from 'node:crypto';
import type { ReportForm, ReporterReport } from '@raly/contracts/reports';

/**
 * The open report the BFF answers to a report form.
 * @param form the form the browser sent (its item's kind and id, reason and note)
 * @param label what the BFF found of the item (an offer's title, a message's excerpt…)
 */
export function anOpenReportOf(form: ReportForm, label: string): ReporterReport {
  return {
    id: randomUUID(),
    item: { ...form.item, label },
    reason: form.reason,
    note: form.note,
    status: 'open',
    resolution: null,
    created: new Date().toISOString(),
  };
}
