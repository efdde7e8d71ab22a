/** The shape every native stack component (postgres, redis, kafka, …) has. */
export type EnsureOutcome = 'reused' | 'started';

export interface StackComponent {
  name: string;
  /** Where it answers, for `stack status` ("127.0.0.1:5432"). */
  address: string;
  isHealthy(): Promise<boolean>;
  /** Idempotent: reuses a healthy instance on the port, else starts one and waits for it. */
  ensure(): Promise<EnsureOutcome>;
  /** Stops it only if this stack started it; answers whether it did. */
  stop(): Promise<boolean>;
}
