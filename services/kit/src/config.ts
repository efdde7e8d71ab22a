/**
 * Fail-fast configuration: a service describes its environment once as a
 * zod schema (with the conventions' defaults) and refuses to start when a
 * variable is missing or malformed.
 */
import type { z } from 'zod';

/**
 * Parses the environment with `schema`.
 * @param schema zod object schema over environment variable names
 * @param env the environment to read; default `process.env`
 * @returns the typed configuration
 * @throws Error naming every invalid variable (the service must not start)
 */
export function loadConfig<Schema extends z.ZodType>(
  schema: Schema,
  env: Record<string, string | undefined> = process.env,
): z.infer<Schema> {
  const result = schema.safeParse(env);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  return result.data;
}
