/**
 * HTTP client of services/moderation (docs/console.md "Reports" and "Audit log"): the staff audit
 * log's internal `GET /audit-entries` and the report routes (`/reports…`), with the BFF's own
 * service token (`raly-bff-service`), on the kit's HTTP client. The moderation service's errors
 * come back unchanged (status, code, message); no answer is 503 `unavailable`; an answer outside
 * the contract is the BFF's 500.
 */
import { auditPageSchema, type AuditPage, type AuditQuery } from '@raly/contracts/audit';
import {
  reportPageSchema,
  reportRecordSchema,
  type OpenReportCommand,
  type ReportPage,
  type ReportQueueQuery,
  type ReportRecord,
  type ResolveReportCommand,
} from '@raly/contracts/reports';
import type { z } from 'zod';
import {
  callInternal,
  dataOf,
  serviceTokenSourceOf,
  type HttpAnswer,
  type HttpCallOptions,
} from '@raly/service-kit/internal';
import { servicePath } from '@raly/service-kit/service-path';
import type { Config } from '../config';

/**
 * Every method throws AppError as the moderation service answered (its status, code and
 * message), `unavailable` (503) when it cannot be reached, and Error (500) when its answer is
 * outside the contract.
 */
export interface ModerationClient {
  /**
   * GET /audit-entries?query=&action=&before= (internal, service token) → one page of the audit
   * log, newest first (`AUDIT_PAGE_SIZE` entries at most), `nextBefore` naming the next page.
   * @param query checked by the caller (`auditQuerySchema`); parameters left out when not set
   * @throws AppError 400 a bad query
   */
  auditEntries(query: AuditQuery): Promise<AuditPage>;
  /**
   * POST /reports → the opened report (version 1).
   * @throws AppError 400 with the rule's message, 409 'You have already reported this.'
   */
  openReport(command: OpenReportCommand): Promise<ReportRecord>;
  /** GET /reports/mine?reporterUserId=&before= → the reporter's own reports, newest first. */
  myReports(reporterUserId: string, before: string | undefined): Promise<ReportPage>;
  /**
   * GET /reports?status=&before= → a page of the queue (open oldest first, resolved newest first).
   * @throws AppError 400 an unknown status or parameter, a malformed cursor
   */
  reportQueue(query: Partial<ReportQueueQuery>): Promise<ReportPage>;
  /** GET /reports/:id. @throws AppError 404 'This report does not exist.' */
  getReport(id: string): Promise<ReportRecord>;
  /**
   * PUT /reports/:id/resolution → the resolved report (the same decision again changes nothing).
   * @throws AppError 400 the body's rules, 404, 409 'This report is already resolved.'
   */
  resolveReport(id: string, command: ResolveReportCommand): Promise<ReportRecord>;
}

/** `AuditQuery` as the service's query parameters: only those set (an empty search is none). */
function parametersOf(query: AuditQuery): Record<string, string> {
  const parameters: Record<string, string> = {};
  if (query.query) parameters.query = query.query;
  if (query.action !== undefined) parameters.action = query.action;
  if (query.before !== undefined) parameters.before = query.before;
  return parameters;
}

/** Only the parameters that are set. */
const definedOf = (parameters: Record<string, string | undefined>): Record<string, string> =>
  Object.fromEntries(
    Object.entries(parameters).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );

/**
 * The `data` of a 2xx answer, checked against the contract.
 * @throws the service's error for any other status; Error when the data breaks the contract
 */
function checkedDataOf<T>(answer: HttpAnswer, schema: z.ZodType<T>, what: string): T {
  const checked = schema.safeParse(
    dataOf<unknown>(answer, `moderation service refused the ${what}`),
  );
  if (!checked.success)
    throw new Error(`moderation service answered a ${what} outside the contract`, {
      cause: checked.error,
    });
  return checked.data;
}

/** @param config MODERATION_URL, Keycloak and the BFF's service client, and the upstream timeout */
export function createModerationClient(config: Config): ModerationClient {
  const serviceTokens = serviceTokenSourceOf(config);
  /** One call to moderation whose 2xx answer's `data` is checked with `schema`. */
  const send = async <T>(
    request: Pick<HttpCallOptions, 'method' | 'json'>,
    path: string,
    schema: z.ZodType<T>,
    what: string,
  ): Promise<T> =>
    checkedDataOf(
      await callInternal(config.MODERATION_URL, serviceTokens, path, {
        ...request,
        timeoutMs: config.UPSTREAM_TIMEOUT_MS,
        target: 'moderation',
        unreachable: 'unavailable',
      }),
      schema,
      what,
    );
  return {
    auditEntries: (query) =>
      send(
        { method: 'GET' },
        servicePath(['audit-entries'], parametersOf(query)),
        auditPageSchema,
        'audit page',
      ),
    openReport: (command) =>
      send(
        { method: 'POST', json: command },
        servicePath(['reports']),
        reportRecordSchema,
        'report',
      ),
    myReports: (reporterUserId, before) =>
      send(
        { method: 'GET' },
        servicePath(['reports', 'mine'], definedOf({ reporterUserId, before })),
        reportPageSchema,
        'report page',
      ),
    reportQueue: (query) =>
      send(
        { method: 'GET' },
        servicePath(['reports'], definedOf({ status: query.status, before: query.before })),
        reportPageSchema,
        'report page',
      ),
    getReport: (id) =>
      send({ method: 'GET' }, servicePath(['reports', id]), reportRecordSchema, 'report'),
    resolveReport: (id, command) =>
      send(
        { method: 'PUT', json: command },
        servicePath(['reports', id, 'resolution']),
        reportRecordSchema,
        'report',
      ),
  };
}
