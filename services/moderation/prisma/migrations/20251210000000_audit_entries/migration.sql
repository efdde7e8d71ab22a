-- The staff audit log (docs/console.md "Audit log"): one row per staff action, inserted once by the
-- consumer of identity.audit.v1 and brand.audit.v1, keyed by the entry's own id so a redelivered
-- event inserts nothing (ON CONFLICT DO NOTHING).
CREATE TABLE "audit_entries" (
    "id" UUID NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL,
    "staff_user_id" TEXT NOT NULL,
    "staff_email" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "target_kind" TEXT NOT NULL,
    "target_id" TEXT NOT NULL,
    "target_label" TEXT NOT NULL,
    "reason" TEXT,
    "details" JSONB NOT NULL,
    "event_id" UUID NOT NULL,
    "topic" TEXT NOT NULL,
    "recorded_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "audit_entries_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "audit_entries_target_kind_check" CHECK ("target_kind" IN ('creator', 'brand'))
);

-- Pages newest first (at desc, id desc), of every action or of one.
CREATE INDEX "audit_entries_newest_idx" ON "audit_entries" ("at" DESC, "id" DESC);
CREATE INDEX "audit_entries_action_newest_idx" ON "audit_entries" ("action", "at" DESC, "id" DESC);

-- The search: staff e-mail, target label or target id containing the text, ignoring case (ILIKE
-- '%text%'), one trigram index per column so the planner ORs bitmap scans. pg_trgm is a trusted
-- extension: the database's owner may create it.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX "audit_entries_staff_email_trgm_idx" ON "audit_entries" USING gin ("staff_email" gin_trgm_ops);
CREATE INDEX "audit_entries_target_label_trgm_idx" ON "audit_entries" USING gin ("target_label" gin_trgm_ops);
CREATE INDEX "audit_entries_target_id_trgm_idx" ON "audit_entries" USING gin ("target_id" gin_trgm_ops);

-- Entries are immutable facts: no statement of any role may change or remove one (TRUNCATE too).
-- Correcting an entry means recording a new one; retiring the log means dropping the table, which
-- takes a migration.
CREATE FUNCTION "audit_entries_refuse_change"() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION 'audit entries are immutable: % refused', TG_OP
    USING ERRCODE = 'insufficient_privilege';
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER "audit_entries_immutable" BEFORE UPDATE OR DELETE ON "audit_entries"
    FOR EACH ROW EXECUTE FUNCTION "audit_entries_refuse_change"();
CREATE TRIGGER "audit_entries_not_truncated" BEFORE TRUNCATE ON "audit_entries"
    FOR EACH STATEMENT EXECUTE FUNCTION "audit_entries_refuse_change"();
