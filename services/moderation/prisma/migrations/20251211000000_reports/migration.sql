-- Reports (docs/console.md "Reports"): a signed-in person reports an offer, a public profile or a
-- collaboration message; staff resolve each report once. One person reports one item once: the
-- unique key (reporter_user_id, item_kind, item_id) decides between concurrent attempts.
-- Every change adds 1 to version, the version of the snapshot on moderation.report.v1.
CREATE TABLE "reports" (
    "id" UUID NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 1,
    "reporter_user_id" TEXT NOT NULL,
    "item_kind" TEXT NOT NULL,
    "item_id" TEXT NOT NULL,
    "item_label" TEXT NOT NULL,
    "accused_kind" TEXT NOT NULL,
    "accused_id" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "note" TEXT NOT NULL DEFAULT '',
    "status" TEXT NOT NULL DEFAULT 'open',
    "resolution_outcome" TEXT,
    "resolution_note" TEXT,
    "resolved_by_user_id" TEXT,
    "resolved_by_email" TEXT,
    "resolved_at" TIMESTAMPTZ(3),
    "created" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "reports_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "reports_reporter_item_key" UNIQUE ("reporter_user_id", "item_kind", "item_id"),
    CONSTRAINT "reports_item_kind_check" CHECK ("item_kind" IN ('offer', 'creator', 'brand', 'message')),
    CONSTRAINT "reports_accused_kind_check" CHECK ("accused_kind" IN ('creator', 'brand')),
    CONSTRAINT "reports_reason_check" CHECK ("reason" IN ('spam', 'scam-or-fraud', 'harassment',
        'hateful-or-violent', 'sexual-content', 'impersonation', 'off-platform-contact', 'other')),
    CONSTRAINT "reports_status_check" CHECK ("status" IN ('open', 'resolved')),
    CONSTRAINT "reports_resolution_outcome_check"
        CHECK ("resolution_outcome" IN ('no-action', 'warning', 'suspension')),
    -- An open report has no resolution; a resolved one has all of it.
    CONSTRAINT "reports_resolution_check" CHECK (
        ("status" = 'open' AND "resolution_outcome" IS NULL AND "resolution_note" IS NULL
            AND "resolved_by_user_id" IS NULL AND "resolved_by_email" IS NULL AND "resolved_at" IS NULL)
        OR ("status" = 'resolved' AND "resolution_outcome" IS NOT NULL AND "resolution_note" IS NOT NULL
            AND "resolved_by_user_id" IS NOT NULL AND "resolved_by_email" IS NOT NULL
            AND "resolved_at" IS NOT NULL))
);

-- The queue: open reports oldest first, resolved ones newest resolution first (keyset pages).
CREATE INDEX "reports_open_oldest_idx" ON "reports" ("created", "id") WHERE "status" = 'open';
CREATE INDEX "reports_resolved_newest_idx" ON "reports" ("resolved_at" DESC, "id" DESC)
    WHERE "status" = 'resolved';
-- A reporter's own reports, newest first.
CREATE INDEX "reports_reporter_newest_idx" ON "reports" ("reporter_user_id", "created" DESC, "id" DESC);

-- Resolving a report is a staff action this service records itself: the audit log's targets
-- include reports.
ALTER TABLE "audit_entries" DROP CONSTRAINT "audit_entries_target_kind_check";
ALTER TABLE "audit_entries" ADD CONSTRAINT "audit_entries_target_kind_check"
    CHECK ("target_kind" IN ('creator', 'brand', 'report'));
