import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * What every log line of the work in hand carries: the invocation (function, cold start, version), the
 * request that set the work off (`requestId` travels on with its events, messages and deliveries) and the
 * ids of the thing being worked on. Ids only: never a token, secret, content or personal data.
 */
export interface LogContext {
  functionName?: string;
  coldStart?: boolean;
  version?: string;
  requestId?: string;
  messageId?: string;
  eventId?: string;
  eventType?: string;
  deliveryId?: string;
  attempt?: number;
  executionId?: string;
  step?: number;
  broadcastId?: string;
  exportId?: string;
  recipientId?: string;
  /** The conversation message a channel send carries. */
  outgoingId?: string;
}

const store = new AsyncLocalStorage<LogContext>();

/** Runs `fn` with `fields` added to the current context (a copy: the caller's context is unchanged). */
export const withContext = <T>(fields: LogContext, fn: () => T): T => store.run({ ...store.getStore(), ...defined(fields) }, fn);

/** Adds what was learnt midway (e.g. a delivery's attempt number) to the context of the work in hand. */
export const addContext = (fields: LogContext): void => {
  const current = store.getStore();
  if (current) Object.assign(current, defined(fields));
};

export const currentContext = (): LogContext => store.getStore() ?? {};

const defined = (fields: LogContext): LogContext =>
  Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as LogContext;
