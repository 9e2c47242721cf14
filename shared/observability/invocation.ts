import type { Context } from 'aws-lambda';
import { withContext, type LogContext } from './context';

const warm = new Set<string>();

/** The function, whether this is its container's first invocation, and its version. */
export const invocationOf = (context: Pick<Context, 'functionName' | 'functionVersion'> | undefined): LogContext => {
  const functionName = context?.functionName ?? 'unknown';
  const coldStart = !warm.has(functionName);
  warm.add(functionName);
  return { functionName, coldStart, version: context?.functionVersion };
};

/** A Lambda handler whose every log line carries its invocation. */
export const observed =
  <E, R>(handler: (event: E, context?: Context) => Promise<R>) =>
  (event: E, context?: Context): Promise<R> =>
    withContext(invocationOf(context), () => handler(event, context));

/** A scheduled handler: nothing caused it but the clock, so its invocation id stands as the request id its changes carry. */
export const scheduled =
  <R>(handler: () => Promise<R>) =>
  (_event?: unknown, context?: Context): Promise<R> =>
    withContext({ ...invocationOf(context), requestId: context?.awsRequestId }, handler);
