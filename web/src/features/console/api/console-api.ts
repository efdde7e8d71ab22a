/**
 * The staff console's calls to the BFF's `/api/console/*` (docs/api.md § Console), and its live
 * report queue (the socket.io namespace `/console`, ../services/console-live), with the
 * console's access token only: never the product's session, whose tokens the console routes
 * refuse anyway. Answers are `{ data }`; refusals `{ error: { code, message } }`.
 */
import type { AuditPage, AuditQuery } from '@raly/contracts/audit';
import type {
  BrandContactView,
  ConsoleCreator,
  ContactViewRequest,
  CreatorContactView,
  CreatorFlagsDecision,
  SuspensionDecision,
} from '@raly/contracts/internal';
import type { BrandRecord } from '@raly/contracts/records';
import type {
  ReportPage,
  ReportRecord,
  ReportResolutionDecision,
  ReportStatus,
} from '@raly/contracts/reports';
import {
  watchConsoleReports,
  type ConsoleLiveAddress,
  type ReportFeedListener,
} from '@/features/console/services/console-live';
import type { ConsoleSession } from '@/features/console/services/console-session';

/** A refusal of a console route: the BFF's status and message. */
export class ConsoleApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ConsoleApiError';
  }
}

/** What a failed console call says to staff: a refusal's or an error's message. */
export const messageOf = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

/**
 * Calls `<apiBaseUrl>/console<path>` with the session's bearer token.
 * @param apiBaseUrl the BFF's REST prefix (/config.json, config/env `apiBaseUrl`)
 * @param body sent as JSON when given
 * @returns the answer's `data`
 * @throws ConsoleApiError for a non-2xx answer (its error message, else a generic one); Error
 *   when the BFF cannot be reached or the session ended
 */
export async function consoleRequest<T>(
  apiBaseUrl: string,
  session: ConsoleSession,
  method: 'GET' | 'PUT' | 'POST',
  path: string,
  body?: unknown,
): Promise<T> {
  const response = await fetch(`${apiBaseUrl}/console${path}`, {
    method,
    credentials: 'omit',
    headers: {
      authorization: `Bearer ${await session.accessToken()}`,
      accept: 'application/json',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = (await response.json().catch(() => ({}))) as {
    data?: T;
    error?: { message?: string };
  };
  if (!response.ok)
    throw new ConsoleApiError(
      response.status,
      answer.error?.message ?? 'The console could not do that. Try again.',
    );
  return answer.data as T;
}

/** The console's routes for one signed-in session. */
export interface ConsoleApi {
  /**
   * GET /api/console/brands?query=: brands whose username starts with `query` or whose company
   * contains it (at most 20).
   */
  findBrands(query: string): Promise<BrandRecord[]>;
  /** PUT /api/console/brands/:id/verification: the verified badge on or off, with the reason. */
  setBrandVerification(
    brandId: string,
    decision: { isVerified: boolean; reason: string },
  ): Promise<BrandRecord>;
  /**
   * PUT /api/console/brands/:id/suspension (raly-moderator): suspends the brand (its members are
   * signed out, its open offers close) or lifts the suspension, with the reason (1–500 characters).
   */
  setBrandSuspension(brandId: string, decision: SuspensionDecision): Promise<BrandRecord>;
  /** PUT /api/console/brands/:id/flags (raly-admin; a moderator gets 403): the brand's `isAgency`. */
  setBrandFlags(brandId: string, flags: { isAgency: boolean }): Promise<BrandRecord>;
  /**
   * GET /api/console/creators?query=: creators whose username starts with `query` or whose e-mail
   * is `query` (at most 20; public profile and flags, no contact detail).
   */
  findCreators(query: string): Promise<ConsoleCreator[]>;
  /**
   * PUT /api/console/creators/:id/suspension (raly-moderator): suspends the creator (signed out,
   * pending applications withdrawn) or lifts the suspension, with the reason (1–500 characters).
   */
  setCreatorSuspension(userId: string, decision: SuspensionDecision): Promise<ConsoleCreator>;
  /** PUT /api/console/creators/:id/flags (raly-admin): `isBoosted` and/or `isAmbassador`. */
  setCreatorFlags(userId: string, flags: CreatorFlagsDecision): Promise<ConsoleCreator>;
  /**
   * POST /api/console/creators/:id/contact-view (raly-moderator): the creator's e-mail and names,
   * with the reason (3–500 characters); the view is recorded in the audit log.
   */
  viewCreatorContact(userId: string, request: ContactViewRequest): Promise<CreatorContactView>;
  /**
   * POST /api/console/brands/:id/contact-view (raly-moderator): each member's e-mail, names and
   * admin role, with the reason; the view is recorded in the audit log.
   */
  viewBrandContacts(brandId: string, request: ContactViewRequest): Promise<BrandContactView>;
  /**
   * GET /api/console/audit?query=&action=&before= (raly-moderator): one page of the staff audit
   * log, newest first; only the parameters set (a blank search is none) are sent.
   */
  auditEntries(query: AuditQuery): Promise<AuditPage>;
  /**
   * GET /api/console/reports?status=&before=: one page of reports, the open queue oldest first or
   * the resolved reports newest resolution first.
   */
  reports(query: { status: ReportStatus; before?: string }): Promise<ReportPage>;
  /**
   * PUT /api/console/reports/:id/resolution: resolves the report with an outcome and a note
   * (1–1000 characters); a suspension also suspends the accused. 409 when resolved otherwise.
   */
  resolveReport(reportId: string, decision: ReportResolutionDecision): Promise<ReportRecord>;
  /**
   * Socket.io namespace `/console`: every report opened or changed, as `reports` reads them, and
   * whether the socket is connected, told to `listener` until the returned function is called.
   */
  watchReports(listener: ReportFeedListener): () => void;
}

/** `query` as the audit route's query string (`?…`, or empty when nothing is set). */
function auditSearchOf(query: AuditQuery): string {
  const search = new URLSearchParams();
  const text = query.query?.trim();
  if (text) search.set('query', text);
  if (query.action) search.set('action', query.action);
  if (query.before) search.set('before', query.before);
  const encoded = search.toString();
  return encoded ? `?${encoded}` : '';
}

/** @returns the console's routes on the BFF at `apiBaseUrl`, called with `session`'s tokens */
export function consoleApi(
  apiBaseUrl: string,
  session: ConsoleSession,
  live: ConsoleLiveAddress,
): ConsoleApi {
  /**
   * `method` `/<accounts>/:id/<part>` with `body`: a decision on one brand or creator (PUT) or a
   * contact view (POST).
   */
  const callOn =
    <T>(accounts: 'brands' | 'creators', method: 'PUT' | 'POST' = 'PUT') =>
    (id: string, part: string, body: unknown) =>
      consoleRequest<T>(
        apiBaseUrl,
        session,
        method,
        `/${accounts}/${encodeURIComponent(id)}/${part}`,
        body,
      );
  const putOnBrand = callOn<BrandRecord>('brands');
  const putOnCreator = callOn<ConsoleCreator>('creators');
  /** GET `/<accounts>?query=`: a lookup. */
  const find = <T>(accounts: 'brands' | 'creators', query: string) =>
    consoleRequest<T[]>(
      apiBaseUrl,
      session,
      'GET',
      `/${accounts}?${new URLSearchParams({ query }).toString()}`,
    );
  return {
    findBrands: (query) => find<BrandRecord>('brands', query),
    setBrandVerification: (brandId, decision) => putOnBrand(brandId, 'verification', decision),
    setBrandSuspension: (brandId, decision) => putOnBrand(brandId, 'suspension', decision),
    setBrandFlags: (brandId, flags) => putOnBrand(brandId, 'flags', flags),
    findCreators: (query) => find<ConsoleCreator>('creators', query),
    setCreatorSuspension: (userId, decision) => putOnCreator(userId, 'suspension', decision),
    setCreatorFlags: (userId, flags) => putOnCreator(userId, 'flags', flags),
    viewCreatorContact: (userId, request) =>
      callOn<CreatorContactView>('creators', 'POST')(userId, 'contact-view', request),
    viewBrandContacts: (brandId, request) =>
      callOn<BrandContactView>('brands', 'POST')(brandId, 'contact-view', request),
    auditEntries: (query) =>
      consoleRequest<AuditPage>(apiBaseUrl, session, 'GET', `/audit${auditSearchOf(query)}`),
    reports: ({ status, before }) =>
      consoleRequest<ReportPage>(
        apiBaseUrl,
        session,
        'GET',
        `/reports?${new URLSearchParams({ status, ...(before ? { before } : {}) }).toString()}`,
      ),
    resolveReport: (reportId, decision) =>
      consoleRequest<ReportRecord>(
        apiBaseUrl,
        session,
        'PUT',
        `/reports/${encodeURIComponent(reportId)}/resolution`,
        decision,
      ),
    watchReports: (listener) => watchConsoleReports(live, session, listener),
  };
}
