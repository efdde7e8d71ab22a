/**
 * Prisma CLI configuration. The URL falls back to the local default so that
 * `prisma generate` (which needs no database) works without any env.
 */
import { defineConfig } from 'prisma/config';

export default defineConfig({
  schema: 'prisma/schema.prisma',
  // The outbox's migrations (services/shared/service-kit/prisma/outbox) join the service's: in a temporary folder
  // named by PRISMA_MIGRATIONS_DIR (the kit's runner), or in prisma/migrations (the image).
  migrations: { path: process.env.PRISMA_MIGRATIONS_DIR ?? 'prisma/migrations' },
  datasource: {
    url: process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/raly_moderation',
  },
});
