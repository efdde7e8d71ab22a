/** The brand service's environment, validated at start (fail fast). */
import { serviceConfigShape } from '@raly/service-kit/config';
import { z } from 'zod';

export const configSchema = z.object(serviceConfigShape({ port: 4002, database: 'raly_brand' }));

export type Config = z.infer<typeof configSchema>;

/** The default database of this service (also used by `npm run migrate`). */
export const defaultDatabaseUrl = configSchema.shape.DATABASE_URL.parse(undefined);
