/** The contract's error codes. Which HTTP status each one answers with is the HTTP layer's business. */
export const ERROR_CODES = [
  'BAD_REQUEST',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'WORKSPACE_ACCESS_DENIED',
  'NOT_FOUND',
  'CONFLICT',
  'PAYLOAD_TOO_LARGE',
  'VALIDATION_ERROR',
  'TOO_MANY_REQUESTS',
  'INTERNAL_ERROR',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface FieldError {
  path: string;
  message: string;
}

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'AppError';
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
  constructor(
    readonly retryAfterSeconds: number,
    what = 'Rate limit exceeded',
  ) {
    super('TOO_MANY_REQUESTS', `${what}; retry after ${retryAfterSeconds} seconds`, { retryAfter: retryAfterSeconds });
  }
}
