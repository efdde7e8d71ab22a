-- Reviews after a completed collaboration: what each side said of the other
-- (`PartyReviews` of @raly/contracts/collaboration-reviews), kept as JSONB
-- like the rest of the work and written under the row lock, so a side
-- reviews once. The public track records read it with the brand_id and
-- creator_id indexes.
ALTER TABLE "collaborations"
    ADD COLUMN "reviews" JSONB NOT NULL DEFAULT '{"brand":null,"creator":null}';
