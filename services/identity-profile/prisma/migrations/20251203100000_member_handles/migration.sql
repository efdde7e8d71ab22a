-- Brand members' handles share the one registry of usernames (owner type `member`, owner id: the user id).
ALTER TABLE "usernames" DROP CONSTRAINT "usernames_owner_type_known";
ALTER TABLE "usernames" ADD CONSTRAINT "usernames_owner_type_known" CHECK ("owner_type" IN ('user', 'brand', 'member'));
