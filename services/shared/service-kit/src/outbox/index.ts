/**
 * The transactional outbox (docs/architecture.md "Events"), the kit's one
 * entry for it: a service records its events with its change in one
 * transaction (./writer over ./rows), and its relay (./relay over ./store)
 * publishes them to Kafka; a hot path in plain SQL records them
 * through ./pg-writer instead. The table is defined once, by the migrations in
 * services/shared/service-kit/prisma/outbox/migrations that every service applies.
 */
export {
  newOutboxMessage,
  newSnapshotOutboxMessage,
  snapshotEventOf,
  type NewOutboxMessage,
  type OutboxRow,
  type RaiseEvent,
} from './rows';
export {
  createEventWriter,
  withdrawPendingEvents,
  type EventTransactionOptions,
  type EventWriter,
  type InteractiveTransactions,
  type OutboxMessageModel,
  type OutboxTransactionClient,
  type OutboxWithdrawingClient,
  type RecordEvents,
} from './writer';
export {
  createPgEventWriter,
  outboxInsertLiteralSql,
  type PgEventWriter,
  type PgRecordEvents,
  type PgTransaction,
} from './pg-writer';
export { OUTBOX_HAND_OFF_LEASE_MS, type OutboxHandOff } from './hand-off';
export {
  createOutboxRelay,
  isProducerStateLost,
  startPostgresOutboxRelay,
  type OutboxRelay,
  type OutboxRelayOptions,
} from './relay';
export {
  inTransaction,
  postgresOutboxStore,
  readOutboxBacklog,
  type ClaimedOutboxRow,
  type OutboxBacklog,
  type OutboxClaim,
  type OutboxFailure,
  type OutboxStore,
} from './store';
