-- CreateTable
CREATE TABLE "users" (
    "id" TEXT NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 1,
    "username" TEXT,
    "first_name" TEXT NOT NULL DEFAULT '',
    "last_name" TEXT NOT NULL DEFAULT '',
    "email" TEXT NOT NULL,
    "phone_number" TEXT NOT NULL DEFAULT '',
    "profile_img" TEXT NOT NULL DEFAULT '',
    "cover_img" TEXT NOT NULL DEFAULT '',
    "interests" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "socials_x" TEXT NOT NULL DEFAULT '',
    "socials_instagram" TEXT NOT NULL DEFAULT '',
    "socials_threads" TEXT NOT NULL DEFAULT '',
    "onboarding_terms" BOOLEAN NOT NULL DEFAULT false,
    "onboarding_interests" BOOLEAN,
    "onboarding_connects" BOOLEAN,
    "onboarding_wallet" BOOLEAN,
    "onboarding_brand" BOOLEAN,
    "is_influencer" BOOLEAN NOT NULL DEFAULT false,
    "is_boosted" BOOLEAN NOT NULL DEFAULT false,
    "is_verified" BOOLEAN NOT NULL DEFAULT false,
    "is_suspended" BOOLEAN NOT NULL DEFAULT false,
    "is_ambassador" BOOLEAN NOT NULL DEFAULT false,
    "notify_offers" BOOLEAN NOT NULL,
    "notify_marketing" BOOLEAN NOT NULL DEFAULT true,
    "brand_id" TEXT,
    "brand_is_admin" BOOLEAN,
    "last_login" TIMESTAMPTZ(3),
    "created" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "users_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "users_username_key" ON "users"("username");

-- CreateIndex
CREATE UNIQUE INDEX "users_email_key" ON "users"("email");

-- Hand-written (Prisma cannot express it): usernames and e-mails are unique
-- case-insensitively because they are stored lowercased; refuse anything else.
ALTER TABLE "users" ADD CONSTRAINT "users_username_lowercase" CHECK ("username" = lower("username"));
ALTER TABLE "users" ADD CONSTRAINT "users_email_lowercase" CHECK ("email" = lower("email"));
