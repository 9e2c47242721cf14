/** What one attempt's result means for the delivery (docs/guide/webhooks.md "What is retried"). */
export type AttemptOutcome =
  | { kind: 'success'; httpStatus: number }
  | { kind: 'retry' | 'terminal'; failureReason: string; httpStatus?: number; retryAfterMs?: number };

/** `Retry-After` as seconds or an HTTP date, in ms from `now`; undefined when absent or unreadable. */
export const parseRetryAfter = (value: string | undefined, now: number): number | undefined => {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
};

export const classifyResponse = (status: number, retryAfter?: string, now = Date.now()): AttemptOutcome => {
  if (status >= 200 && status < 300) return { kind: 'success', httpStatus: status };
  if (status === 410) return { kind: 'terminal', failureReason: 'gone_410', httpStatus: status };
  const failureReason = status >= 300 && status < 400 ? `redirect_${status}` : `http_${status}`;
  const honoursRetryAfter = status === 429 || status === 503;
  const retryAfterMs = honoursRetryAfter ? parseRetryAfter(retryAfter, now) : undefined;
  return { kind: 'retry', failureReason, httpStatus: status, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) };
};

const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|CERT_|EPROTO$|DEPTH_ZERO_SELF_SIGNED_CERT$|SELF_SIGNED_CERT_IN_CHAIN$|UNABLE_TO_|HOSTNAME_MISMATCH$)/;

/** Maps a transport error code (Node's `err.code`, or our own `TIMEOUT`/`SSRF_BLOCKED`) to a failure reason. */
export const failureReasonOf = (code: string | undefined): string => {
  if (!code) return 'connection_error';
  if (code === 'TIMEOUT') return 'timeout';
  if (code === 'SSRF_BLOCKED') return 'ssrf_blocked';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'ENODATA' || code === 'ESERVFAIL') return 'dns_error';
  if (code === 'ECONNREFUSED') return 'connection_refused';
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'ECONNABORTED') return 'connection_reset';
  if (TLS_CODE.test(code)) return 'tls_error';
  return 'connection_error';
};

export const classifyError = (code: string | undefined): AttemptOutcome => ({ kind: 'retry', failureReason: failureReasonOf(code) });
