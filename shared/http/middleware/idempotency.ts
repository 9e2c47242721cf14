import { decide, IdempotencyInProgress } from '../../domain/idempotency/decide';
import { checkIdempotencyKey, IDEMPOTENCY_HEADER, requestFingerprint } from '../../domain/idempotency/key';
import { claimKey, completionWrites, readKey, releaseKey, type KeyRef } from '../../data/idempotency';
import { direct } from '../../data/unit';
import { log } from '../../log';
import { httpErrorOf, isRetryableStatus } from '../errors';
import { header, stateOf, type HttpMiddleware } from '../state';
import { errorResponse, finish } from './respond';

const KEYED_METHODS = new Set(['POST', 'PATCH']);

const bodyBytes = (body: string | undefined, base64: boolean | undefined) => Buffer.from(body ?? '', base64 ? 'base64' : 'utf8');

/**
 * `Idempotency-Key` on POST and PATCH (docs/guide/idempotency.md). Runs after the scope check and before
 * validation: a rate-limited or unauthorised request keeps nothing, a 4xx from validation or the handler
 * is kept, a 5xx gives the key back. A repeat of a finished request is answered from the record,
 * marked `Idempotent-Replayed: true`; the handler's own writes commit with the record (`./keyed-run.ts`).
 */
export const idempotency = (): HttpMiddleware => ({
  before: async (request) => {
    const { event } = request;
    const sent = header(event, IDEMPOTENCY_HEADER);
    if (sent === undefined || !KEYED_METHODS.has(event.requestContext.http.method)) return undefined;
    const state = stateOf(request);
    const ref: KeyRef = { tenant: state.tenant!, tokenId: state.token!._id, key: checkIdempotencyKey(sent), owner: state.requestId };
    const fingerprint = requestFingerprint(event.requestContext.http.method, event.rawPath, bodyBytes(event.body, event.isBase64Encoded));
    if (!(await claimKey(ref, fingerprint, state.now))) {
      const decision = decide(ref.key, await readKey(ref), fingerprint, Math.floor(state.now.getTime() / 1000));
      state.replayed = decision.kind === 'replay';
      if (decision.kind === 'replay') return finish(state, decision.response, { 'Idempotent-Replayed': 'true' });
      // The record expired or its holder gave up between our claim and our read: one more try.
      if (!(await claimKey(ref, fingerprint, state.now))) throw new IdempotencyInProgress(ref.key);
    }
    state.idempotency = ref;
    return undefined;
  },
  onError: async (request) => {
    const state = stateOf(request);
    const ref = state.idempotency;
    if (!ref) return;
    const known = httpErrorOf(request.error);
    try {
      if (known && !isRetryableStatus(known.status)) await direct.commit(completionWrites(ref, errorResponse(known), state.now));
      else await releaseKey(ref);
    } catch (error) {
      // The answer still goes out; the key stays held until its lock expires.
      log.error('idempotency record not finished', { requestId: state.requestId, error });
    }
  },
});
