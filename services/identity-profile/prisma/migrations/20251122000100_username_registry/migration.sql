-- CreateTable
CREATE TABLE "usernames" (
    "username" TEXT NOT NULL,
    "owner_type" TEXT NOT NULL,
    "owner_id" TEXT NOT NULL,
    "created" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "usernames_pkey" PRIMARY KEY ("username")
);

-- CreateIndex
CREATE INDEX "usernames_owner_type_owner_id_idx" ON "usernames"("owner_type", "owner_id");

-- Hand-written (Prisma cannot express it): one registry of usernames for
-- creators and brands (spec §5: unique across both). Its primary key decides
-- races. Creators' rows follow users.username through a trigger, inside the
-- transaction that writes the user, so a clash fails that write (P2002 on
-- usernames_pkey, mapped to 'Username already exists. Try another.').
ALTER TABLE "usernames" ADD CONSTRAINT "usernames_username_lowercase" CHECK ("username" = lower("username"));
ALTER TABLE "usernames" ADD CONSTRAINT "usernames_owner_type_known" CHECK ("owner_type" IN ('user', 'brand'));

INSERT INTO "usernames" ("username", "owner_type", "owner_id")
SELECT "username", 'user', "id" FROM "users" WHERE "username" IS NOT NULL;

CREATE FUNCTION "users_keep_username_claim"() RETURNS trigger AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD."username" IS NOT NULL THEN
    DELETE FROM "usernames" WHERE "username" = OLD."username" AND "owner_type" = 'user' AND "owner_id" = OLD."id";
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW."username" IS NOT NULL THEN
    INSERT INTO "usernames" ("username", "owner_type", "owner_id") VALUES (NEW."username", 'user', NEW."id");
  END IF;
  RETURN NULL;
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER "users_keep_username_claim_on_insert" AFTER INSERT ON "users"
  FOR EACH ROW EXECUTE FUNCTION "users_keep_username_claim"();
CREATE TRIGGER "users_keep_username_claim_on_update" AFTER UPDATE OF "username" ON "users"
  FOR EACH ROW WHEN (OLD."username" IS DISTINCT FROM NEW."username") EXECUTE FUNCTION "users_keep_username_claim"();
CREATE TRIGGER "users_keep_username_claim_on_delete" AFTER DELETE ON "users"
  FOR EACH ROW EXECUTE FUNCTION "users_keep_username_claim"();
