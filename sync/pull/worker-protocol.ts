// Messages between runSyncInWorker and its worker thread (structured-clone data only).
import type { ApiClientOptions, ApiErrorKind, ServiceErrorObject } from '../api';
import type { SyncSummary } from './engine';
import type { SyncOptions, SyncProgress } from './options';

export interface WorkerSyncInput {
  replicaFile: string;
  /** The token stays in the main process and this worker; it never reaches a renderer. */
  token: string;
  /** `pace` as ApiClientOptions: absent for the default of the base URL, 'none' for no pace. */
  client: Pick<
    ApiClientOptions,
    'baseUrl' | 'oauthUrl' | 'maxInFlight' | 'pace' | 'timeoutMs' | 'maxRetries'
  >;
  options: Omit<Partial<SyncOptions>, 'today'> & Pick<SyncOptions, 'profile'>;
}

export interface SerializedError {
  name: string;
  message: string;
  kind?: ApiErrorKind;
  status?: number;
  url?: string;
  method?: string;
  errors?: ServiceErrorObject[];
}

export type WorkerMessage =
  | { type: 'progress'; event: SyncProgress }
  | { type: 'done'; summary: SyncSummary }
  | { type: 'failed'; error: SerializedError };
