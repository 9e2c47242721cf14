/** One failing field of a 422 (or 400) answer: `path` names the field, `message` says why. */
export interface FieldError {
  path: string;
  message: string;
}

/** The codes the contract names; the API may add others, so any string is accepted. */
export type ErrorCode =
  | 'BAD_REQUEST'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'WORKSPACE_ACCESS_DENIED'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'PAYLOAD_TOO_LARGE'
  | 'VALIDATION_ERROR'
  | 'TOO_MANY_REQUESTS'
  | 'INTERNAL_ERROR'
  | (string & {});

export interface ErrorDetails {
  errors?: FieldError[];
  [key: string]: unknown;
}

/** Every error the client throws; its `name` is its class's. */
export class ParleyError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** The API answered with the error wrapper `{success: false, error: {code, message, details?}}`. */
export class ParleyApiError extends ParleyError {
  readonly status: number;
  readonly code: ErrorCode;
  readonly details: ErrorDetails | undefined;
  /** `X-Request-Id`: quote it when reporting a problem. */
  readonly requestId: string | undefined;
  readonly headers: Headers;

  constructor(status: number, error: { code: ErrorCode; message: string; details?: ErrorDetails }, headers: Headers) {
    super(error.message);
    this.status = status;
    this.code = error.code;
    this.details = error.details;
    this.requestId = headers.get('x-request-id') ?? undefined;
    this.headers = headers;
  }

  /** The failing fields of a 422, empty for any other error. */
  get fieldErrors(): FieldError[] {
    return this.details?.errors ?? [];
  }
}

export class ParleyInvalidRequestError extends ParleyApiError {}
export class ParleyAuthenticationError extends ParleyApiError {}
export class ParleyPermissionError extends ParleyApiError {}
export class ParleyNotFoundError extends ParleyApiError {}
export class ParleyConflictError extends ParleyApiError {}
export class ParleyServerError extends ParleyApiError {}

export class ParleyRateLimitError extends ParleyApiError {
  /** How long the server asked to wait (`Retry-After`), when it said. */
  readonly retryAfterMs: number | undefined;

  constructor(status: number, error: ConstructorParameters<typeof ParleyApiError>[1], headers: Headers, retryAfterMs: number | undefined) {
    super(status, error, headers);
    this.retryAfterMs = retryAfterMs;
  }
}

/** No answer: the connection failed or was reset, after every retry. */
export class ParleyConnectionError extends ParleyError {}

/** No answer within the request's `timeoutMs`, after every retry. */
export class ParleyTimeoutError extends ParleyConnectionError {}

const byStatus: Record<number, typeof ParleyApiError> = {
  400: ParleyInvalidRequestError,
  401: ParleyAuthenticationError,
  403: ParleyPermissionError,
  404: ParleyNotFoundError,
  409: ParleyConflictError,
  413: ParleyInvalidRequestError,
  422: ParleyInvalidRequestError,
};

const isWrapper = (body: unknown): body is { error: { code: string; message: string; details?: ErrorDetails } } => {
  const error = (body as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  return typeof error?.code === 'string' && typeof error.message === 'string';
};

/** The typed error for an answer that is not a success; a body that is not the wrapper still gets one. */
export const apiError = (response: Response, body: unknown, retryAfterMs: number | undefined): ParleyApiError => {
  const error = isWrapper(body)
    ? body.error
    : { code: `HTTP_${response.status}`, message: `HTTP ${response.status} ${response.statusText}`.trim() };
  if (response.status === 429) return new ParleyRateLimitError(response.status, error, response.headers, retryAfterMs);
  const Class = byStatus[response.status] ?? (response.status >= 500 ? ParleyServerError : ParleyApiError);
  return new Class(response.status, error, response.headers);
};
