-- The outcome of a person's own report (moderation.report.v1, docs/console.md "Reports"), told to
-- its reporter: the reported item's kind and staff's outcome, on that kind of item only. Never
-- whom the report accused nor the staff member.
ALTER TYPE "NotificationKind" ADD VALUE IF NOT EXISTS 'report_resolved';

ALTER TABLE "notifications"
    ADD COLUMN "report_item_kind" TEXT,
    ADD COLUMN "report_outcome" TEXT,
    ADD CONSTRAINT "notifications_report_item_kind_check"
        CHECK ("report_item_kind" IN ('offer', 'creator', 'brand', 'message')),
    ADD CONSTRAINT "notifications_report_outcome_check"
        CHECK ("report_outcome" IN ('no-action', 'warning', 'suspension')),
    ADD CONSTRAINT "notifications_report_whole"
        CHECK (("report_item_kind" IS NULL) = ("report_outcome" IS NULL));
