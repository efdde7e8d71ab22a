/**
 * Reports through the BFF (docs/console.md "Reports"): a signed-in person reports an offer or a
 * public profile (`POST /api/reports`) and reads their own reports with the outcome staff chose
 * (`GET /api/reports/mine`, newest first, a page at a time). Shared by the offer page, the public
 * profiles and the settings' "Reports" page.
 */
import type { ReportForm, ReporterReport } from '@raly/contracts/reports';
import { api, unwrapData } from '@/lib/api-client';

/** A page of the reporter's own reports; `nextBefore` names the next page, or is null. */
export interface MyReportsPage {
  reports: ReporterReport[];
  nextBefore: string | null;
}

export const reportsApi = api.injectEndpoints({
  endpoints: (build) => ({
    /**
     * POST /api/reports: 201 with the new report; 409 'You have already reported this.'; 400 with
     * the field's message; 429 when the person reports too often.
     */
    reportItem: build.mutation<ReporterReport, ReportForm>({
      query: (body) => ({ url: '/reports', method: 'POST', body }),
      transformResponse: unwrapData<ReporterReport>,
    }),
    /** GET /api/reports/mine?before=: one page of the caller's reports, newest first. */
    getMyReports: build.query<MyReportsPage, string | undefined>({
      query: (before) =>
        before ? `/reports/mine?${new URLSearchParams({ before })}` : '/reports/mine',
      transformResponse: unwrapData<MyReportsPage>,
    }),
  }),
});

export const { useReportItemMutation, useGetMyReportsQuery } = reportsApi;
