/** What the moderation use cases need from the outside world, handed in by `../app.ts`. */
import type { Logger } from '@raly/service-kit/logger';
import type { AuditEntryStore } from '../data-access/audit-entries';
import type { ReportStore } from '../data-access/reports';

export interface ModerationDependencies {
  auditEntries: AuditEntryStore;
  reports: ReportStore;
  logger: Logger;
  /** The clock of resolutions. */
  now: () => Date;
}
