-- Brands as teams: the team's version, members' handles and invitations.
ALTER TABLE "brands" ADD COLUMN "team_version" INTEGER NOT NULL DEFAULT 1;

ALTER TABLE "brand_members" ADD COLUMN "handle" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "brand_members_handle_key" ON "brand_members"("handle");

-- CreateTable
CREATE TABLE "brand_invitations" (
    "id" UUID NOT NULL,
    "brand_id" UUID NOT NULL,
    "email" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "used_at" TIMESTAMPTZ(3),
    "used_by" TEXT,
    "cancelled_at" TIMESTAMPTZ(3),
    "created" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "brand_invitations_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "brand_invitations_token_hash_key" ON "brand_invitations"("token_hash");

-- CreateIndex
CREATE INDEX "brand_invitations_brand_id_created_idx" ON "brand_invitations"("brand_id", "created");

-- AddForeignKey
ALTER TABLE "brand_invitations" ADD CONSTRAINT "brand_invitations_brand_id_fkey" FOREIGN KEY ("brand_id") REFERENCES "brands"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Hand-written (Prisma cannot express it): handles and invited e-mails are stored lowercased.
ALTER TABLE "brand_members" ADD CONSTRAINT "brand_members_handle_lowercase" CHECK ("handle" = lower("handle"));
ALTER TABLE "brand_invitations" ADD CONSTRAINT "brand_invitations_email_lowercase" CHECK ("email" = lower("email"));
