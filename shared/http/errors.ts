/** The contract's error codes and their HTTP statuses: the single mapping table. */
export const errorStatus = {
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
} as const;

export type ErrorCode = keyof typeof errorStatus;

export interface FieldError {
  path: string;
  message: string;
}

export class AppError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.status = errorStatus[code];
  }

  toJSON() {
    return { code: this.code, message: this.message, ...(this.details ? { details: this.details } : {}) };
  }
}

export class ValidationError extends AppError {
  constructor(errors: FieldError[], code: 'VALIDATION_ERROR' | 'BAD_REQUEST' = 'VALIDATION_ERROR') {
    const summary = errors.map((e) => `${e.path || '(body)'}: ${e.message}`).join('; ');
    super(code, code === 'BAD_REQUEST' ? `Bad request: ${summary}` : `Validation failed: ${summary}`, { errors });
  }
}

export class NotFoundError extends AppError {
  constructor(what: string, details?: Record<string, unknown>) {
    super('NOT_FOUND', `${what} not found`, details);
  }
}

export class ConflictError extends AppError {
  constructor(message: string, details?: Record<string, unknown>) {
    super('CONFLICT', message, details);
  }
}

export class TooManyRequestsError extends AppError {
  constructor(retryAfterSeconds: number, what = 'Rate limit exceeded') {
    super('TOO_MANY_REQUESTS', `${what}; retry after ${retryAfterSeconds} seconds`, { retryAfter: retryAfterSeconds }, {
      'Retry-After': String(retryAfterSeconds),
    });
  }
}
