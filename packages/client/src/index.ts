export { createParleyClient, type ParleyClient, type ParleyClientOptions } from './client.js';
export {
  ParleyApiError,
  ParleyAuthenticationError,
  ParleyConflictError,
  ParleyConnectionError,
  ParleyError,
  ParleyInvalidRequestError,
  ParleyNotFoundError,
  ParleyPermissionError,
  ParleyRateLimitError,
  ParleyServerError,
  ParleyTimeoutError,
  type ErrorCode,
  type ErrorDetails,
  type FieldError,
} from './errors.js';
export { DEFAULT_RETRY, type RetryPolicy } from './retry.js';
export { liveUpdates, ParleyRealtimeError, type ParleyEvent, type SubscribeOptions, type WebSocketConstructor } from './realtime.js';
export type { ApiPath, ListItem, ListPath, Operation, RequestOptions, Success } from './types.js';
export type { components, paths, webhooks } from './schema.js';
export { ParleyFileRejectedError, ParleyUploadError, uploadFile, type UploadBody, type UploadOptions } from './files.js';
export {
  exportCsv,
  importCustomers,
  importLeads,
  ParleyJobFailedError,
  type BulkJobOptions,
  type ImportOptions,
} from './bulk.js';
