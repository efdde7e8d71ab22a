-- CreateTable
CREATE TABLE "brands" (
    "id" UUID NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 1,
    "username" TEXT NOT NULL,
    "company" TEXT NOT NULL,
    "website_url" TEXT NOT NULL,
    "profile_img" TEXT NOT NULL DEFAULT '',
    "cover_img" TEXT NOT NULL DEFAULT '',
    "bio" TEXT NOT NULL DEFAULT '',
    "socials_x" TEXT NOT NULL DEFAULT '',
    "socials_instagram" TEXT NOT NULL DEFAULT '',
    "socials_threads" TEXT NOT NULL DEFAULT '',
    "socials_discord" TEXT NOT NULL DEFAULT '',
    "is_agency" BOOLEAN NOT NULL DEFAULT false,
    "is_verified" BOOLEAN NOT NULL DEFAULT false,
    "is_suspended" BOOLEAN NOT NULL DEFAULT false,
    "creator_user_id" TEXT NOT NULL,
    "created" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "brands_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "brand_members" (
    "brand_id" UUID NOT NULL,
    "user_id" TEXT NOT NULL,
    "is_admin" BOOLEAN NOT NULL DEFAULT false,
    "created" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "brand_members_pkey" PRIMARY KEY ("brand_id","user_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "brands_username_key" ON "brands"("username");

-- CreateIndex
CREATE UNIQUE INDEX "brands_creator_user_id_key" ON "brands"("creator_user_id");

-- CreateIndex
CREATE INDEX "brand_members_user_id_idx" ON "brand_members"("user_id");

-- AddForeignKey
ALTER TABLE "brand_members" ADD CONSTRAINT "brand_members_brand_id_fkey" FOREIGN KEY ("brand_id") REFERENCES "brands"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Hand-written (Prisma cannot express it): usernames are stored lowercased.
ALTER TABLE "brands" ADD CONSTRAINT "brands_username_lowercase" CHECK ("username" = lower("username"));
