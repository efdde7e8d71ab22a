-- The trace context of the request or message that wrote the row (W3C Trace
-- Context, services/kit tracing.ts): the outbox relay puts it in the Kafka
-- message's headers so the consumer continues the same trace. Null when the
-- row was written outside a trace (tracing off, or rows older than this).
ALTER TABLE "outbox" ADD COLUMN "traceparent" TEXT,
ADD COLUMN "tracestate" TEXT;
