import { deliveryWithAttempts, type Attempt, type Delivery } from './delivery';
import { loggedBody, type LoggedBody } from './logged-body';
import { unsignedHeaders } from './sign';

/**
 * One attempt as the delivery log details it: the request as sent (its headers without the signatures,
 * which derive from the secret, and the body, the same bytes every attempt) and the response's body, or
 * `null` when no response came. Bodies are cut at LOGGED_BODY_BYTES.
 */
const attemptDetail = (d: Delivery, a: Attempt, request: LoggedBody, responseBody: Buffer | undefined) => ({
  ...a,
  request: {
    headers: unsignedHeaders({
      eventId: d.eventId,
      eventType: d.eventType,
      deliveryId: d.deliveryId,
      attemptNumber: a.attemptNumber,
      timestamp: Math.floor(Date.parse(a.at) / 1000),
    }),
    ...request,
  },
  response: a.httpStatus === undefined ? null : loggedBody(responseBody ?? Buffer.alloc(0)),
});

/** A delivery with every attempt detailed; `payload` is the event's body (gone once its retention ended). */
export const deliveryDetail = (d: Delivery, payload: string | undefined, responseBodies: ReadonlyMap<number, Buffer>) => {
  const request = payload === undefined ? { body: '', bodyTruncated: false } : loggedBody(Buffer.from(payload, 'utf8'));
  return { ...deliveryWithAttempts(d), attempts: d.attempts.map((a) => attemptDetail(d, a, request, responseBodies.get(a.attemptNumber))) };
};
