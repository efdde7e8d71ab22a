/** `npm run migrate`: applies prisma/migrations to DATABASE_URL (see docs/adr/0001). */
import path from 'node:path';
import { migrateCommand } from '@raly/service-kit/migrate';
import { defaultDatabaseUrl } from './config';

await migrateCommand(path.join(import.meta.dirname, '..'), defaultDatabaseUrl);
