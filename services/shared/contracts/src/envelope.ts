/**
 * What wraps every message between Raly's processes, whatever it carries:
 * the CloudEvents-style envelope of an integration event (docs/architecture.md
 * "Events"), its dead-letter topic, and the header of the calling service's
 * token on an internal call. The one module of contracts the service kit
 * imports (eslint.config.js): the kit knows envelopes, not products.
 */
import { z } from 'zod';

/** Any event's envelope; `type` is checked against the known types by `./events`. */
export const envelopeSchema = z.object({
  id: z.uuid(),
  type: z.string().min(1),
  source: z.string(),
  /** The aggregate id; also the Kafka message key. */
  subject: z.string(),
  time: z.string(),
  /** The aggregate's version after this change (strictly increasing). */
  version: z.number().int().nonnegative(),
  data: z.unknown(),
});
/** An envelope whose `data` is a `T` and whose `type` is one of `Type`. */
export type Envelope<T = unknown, Type extends string = string> = Omit<
  z.infer<typeof envelopeSchema>,
  'type' | 'data'
> & { type: Type; data: T };

/** Dead-letter topic for poison messages of `topic`. */
export const deadLetterTopic = (topic: string): string => `${topic}.dlq`;

/**
 * Header carrying the calling service's Keycloak access token (client
 * credentials of its own client, docs/adr/0008) on internal calls. Every
 * service refuses an internal call without a valid token meant for it (401)
 * or from a caller the route does not allow (403).
 */
export const INTERNAL_TOKEN_HEADER = 'x-raly-service-token';
