-- CreateEnum
CREATE TYPE "OfferStatus" AS ENUM ('draft', 'open', 'closed');

-- CreateEnum
CREATE TYPE "OfferClosedReason" AS ENUM ('brand', 'deadline', 'filled');

-- CreateEnum
CREATE TYPE "ApplicationStatus" AS ENUM ('pending', 'accepted', 'declined', 'withdrawn');

-- CreateTable
CREATE TABLE "users" (
    "id" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "username" TEXT NOT NULL DEFAULT '',
    "profile_img" TEXT NOT NULL DEFAULT '',
    "cover_img" TEXT NOT NULL DEFAULT '',
    "interests" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
    "socials_x" TEXT NOT NULL DEFAULT '',
    "socials_instagram" TEXT NOT NULL DEFAULT '',
    "socials_threads" TEXT NOT NULL DEFAULT '',
    "brand_id" UUID,
    "is_onboarded" BOOLEAN NOT NULL DEFAULT false,
    "is_suspended" BOOLEAN NOT NULL DEFAULT false,
    "notifications_offers" BOOLEAN NOT NULL DEFAULT true,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "brands" (
    "id" UUID NOT NULL,
    "version" INTEGER NOT NULL,
    "username" TEXT NOT NULL,
    "company" TEXT NOT NULL,
    "profile_img" TEXT NOT NULL DEFAULT '',
    "is_verified" BOOLEAN NOT NULL DEFAULT false,
    "is_suspended" BOOLEAN NOT NULL DEFAULT false,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "brands_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "offers" (
    "id" UUID NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 1,
    "brand_id" UUID NOT NULL,
    "title" TEXT NOT NULL,
    "brief" TEXT NOT NULL,
    "interests" TEXT[] NOT NULL,
    "platforms" TEXT[] NOT NULL,
    "deliverables" TEXT NOT NULL,
    "compensation" JSONB NOT NULL,
    "creators_wanted" INTEGER NOT NULL,
    "places_filled" INTEGER NOT NULL DEFAULT 0,
    "apply_by" TIMESTAMPTZ(3) NOT NULL,
    "status" "OfferStatus" NOT NULL DEFAULT 'draft',
    "closed_reason" "OfferClosedReason",
    "created" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "opened_at" TIMESTAMPTZ(3),
    "closed_at" TIMESTAMPTZ(3),
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "offers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "applications" (
    "id" UUID NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 1,
    "offer_id" UUID NOT NULL,
    "brand_id" UUID NOT NULL,
    "creator_id" TEXT NOT NULL,
    "pitch" TEXT NOT NULL,
    "proposed_rate" JSONB,
    "status" "ApplicationStatus" NOT NULL DEFAULT 'pending',
    "created" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "decided_at" TIMESTAMPTZ(3),
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "applications_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "users_brand_id_idx" ON "users"("brand_id");

-- CreateIndex
CREATE INDEX "offers_brand_id_created_idx" ON "offers"("brand_id", "created" DESC);

-- CreateIndex
CREATE INDEX "offers_interests_idx" ON "offers" USING GIN ("interests");

-- CreateIndex
CREATE INDEX "offers_platforms_idx" ON "offers" USING GIN ("platforms");

-- CreateIndex
CREATE UNIQUE INDEX "applications_offer_id_creator_id_key" ON "applications"("offer_id", "creator_id");

-- CreateIndex
CREATE INDEX "applications_offer_id_created_idx" ON "applications"("offer_id", "created" DESC);

-- CreateIndex
CREATE INDEX "applications_creator_id_created_idx" ON "applications"("creator_id", "created" DESC);

-- AddForeignKey
ALTER TABLE "offers" ADD CONSTRAINT "offers_brand_id_fkey" FOREIGN KEY ("brand_id") REFERENCES "brands"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "applications" ADD CONSTRAINT "applications_offer_id_fkey" FOREIGN KEY ("offer_id") REFERENCES "offers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "applications" ADD CONSTRAINT "applications_creator_id_fkey" FOREIGN KEY ("creator_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Hand-written (Prisma cannot express them).
-- The feed (GET /offers) and a brand's public list read open offers newest first: index only those.
CREATE INDEX "offers_open_feed_idx" ON "offers"("opened_at" DESC, "id") WHERE "status" = 'open';
-- The deadline sweep finds open offers whose apply-by date has passed.
CREATE INDEX "offers_open_apply_by_idx" ON "offers"("apply_by") WHERE "status" = 'open';
-- A place is never filled twice over, and the arrays hold what the form allows.
ALTER TABLE "offers" ADD CONSTRAINT "offers_places_filled_range" CHECK ("places_filled" >= 0 AND "places_filled" <= "creators_wanted");
