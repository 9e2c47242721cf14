import { AppError, type ErrorCode } from '../domain/errors';

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

/** A typed error as the response it becomes; anything else is not ours to describe (undefined). */
export const httpErrorOf = (error: unknown): HttpError | undefined => {
  if (!(error instanceof AppError)) return undefined;
  const headers: Record<string, string> = {};
  // 429s and a repeat of a request still in progress say when to try again.
  if (typeof error.details?.retryAfter === 'number') headers['Retry-After'] = String(error.details.retryAfter);
  const allowed = error.code === 'NOT_FOUND' ? error.details?.allowedMethods : undefined;
  if (Array.isArray(allowed)) headers.Allow = allowed.join(', ');
  return { status: errorStatus[error.code], body: error.toJSON(), headers };
};
