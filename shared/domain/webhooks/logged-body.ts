/** The delivery log keeps this much of each request and response body (UTF-8 bytes); the rest is cut. */
export const LOGGED_BODY_BYTES = 4096;

export interface LoggedBody {
  body: string;
  /** Whether the body was longer and `body` is its first LOGGED_BODY_BYTES. */
  bodyTruncated: boolean;
}

/** A body as the log shows it: its first LOGGED_BODY_BYTES as text, without a character cut in half. */
export const loggedBody = (bytes: Buffer): LoggedBody => {
  if (bytes.length <= LOGGED_BODY_BYTES) return { body: bytes.toString('utf8'), bodyTruncated: false };
  return {
    body: bytes
      .subarray(0, LOGGED_BODY_BYTES)
      .toString('utf8')
      .replace(/\uFFFD$/, ''),
    bodyTruncated: true,
  };
};
