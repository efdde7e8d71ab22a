-- A staff suspension (docs/console.md): when, by which staff member and why; all null while not suspended.
ALTER TABLE "users" ADD COLUMN "suspended_at" TIMESTAMPTZ(3);
ALTER TABLE "users" ADD COLUMN "suspended_by" TEXT;
ALTER TABLE "users" ADD COLUMN "suspension_reason" TEXT;
