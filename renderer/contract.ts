// The renderer's one door to the core's contract: types (and the account schema) from
// sync/contract, nothing else of sync/ (the lint rule of the rooms holds it so).
export type {
  CoreError,
  CoreErrorCode,
  CoreEvent,
  SchedulerState,
  SchedulerProblem,
  SyncStatus,
  OutboxEntry,
  ConflictEntry,
  AppState,
  CallName,
  CallArgs,
  CallResults,
} from '../sync/contract';
export { accountSettings, REAL_SERVICE_PRESET } from '../sync/contract';
