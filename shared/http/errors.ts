import { AppError, TooManyRequestsError, type ErrorCode } from '../domain/errors';
import { isContention } from '../data/retry';
import { answerOf } from './refusals';

/** The contract's error codes and their HTTP statuses: the single mapping table. */
export const errorStatus: Record<ErrorCode, number> = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  WORKSPACE_ACCESS_DENIED: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  VALIDATION_ERROR: 422,
  TOO_MANY_REQUESTS: 429,
  INTERNAL_ERROR: 500,
};

export interface HttpError {
  status: number;
  body: ReturnType<AppError['toJSON']>;
  headers: Record<string, string>;
}

/** How long a request that lost out to concurrent writers should wait before trying again. */
const CONTENTION_RETRY_AFTER_SECONDS = 1;

/** 429s and 5xx tell the client to try again, so they are answers about this moment, not about the request. */
export const isRetryableStatus = (status: number): boolean => status === 429 || status >= 500;

/** A typed error as the response it becomes; anything else is not ours to describe (undefined). */
export const httpErrorOf = (error: unknown): HttpError | undefined => {
  if (isContention(error))
    return httpErrorOf(new TooManyRequestsError(CONTENTION_RETRY_AFTER_SECONDS, 'Too many concurrent changes to the same records'));
  const answer = answerOf(error);
  if (answer) return httpErrorOf(answer);
  if (!(error instanceof AppError)) return undefined;
  const headers: Record<string, string> = {};
  // 429s and a repeat of a request still in progress say when to try again.
  if (typeof error.details?.retryAfter === 'number') headers['Retry-After'] = String(error.details.retryAfter);
  const allowed = error.code === 'NOT_FOUND' ? error.details?.allowedMethods : undefined;
  if (Array.isArray(allowed)) headers.Allow = allowed.join(', ');
  return { status: errorStatus[error.code], body: error.toJSON(), headers };
};
