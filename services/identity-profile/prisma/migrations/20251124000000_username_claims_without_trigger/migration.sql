-- Hand-written: creators' usernames are claimed and released by the domain
-- (src/domain/usernames.ts usernameChange), inside the transaction that
-- writes the user, the same operation as a brand's (claim → save → release
-- old), instead of by a hidden trigger on "users". The registry's primary
-- key still decides races (a clash fails the user's write).
DROP TRIGGER IF EXISTS "users_keep_username_claim_on_insert" ON "users";
DROP TRIGGER IF EXISTS "users_keep_username_claim_on_update" ON "users";
DROP TRIGGER IF EXISTS "users_keep_username_claim_on_delete" ON "users";
DROP FUNCTION IF EXISTS "users_keep_username_claim"();

-- Existing data stays valid: every creator's username keeps (or regains) its
-- claim. Rows the trigger made are already there and are left as they are.
INSERT INTO "usernames" ("username", "owner_type", "owner_id")
SELECT "username", 'user', "id" FROM "users" WHERE "username" IS NOT NULL
ON CONFLICT ("username") DO NOTHING;
