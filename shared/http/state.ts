import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { Tenant } from '../domain/auth/tenant';
import type { TokenRecord } from '../domain/auth/token';
import type { RateCategory } from '../domain/auth/rate-limit';
import type { KeyRef } from '../data/idempotency';

/** What the pipeline learns about a request as it passes each middleware, in order. */
export interface RequestState {
  requestId: string;
  now: Date;
  /** Extra response headers (rate-limit headers); applied to successes and errors alike. */
  headers: Record<string, string>;
  token?: TokenRecord;
  /** Whether the token's rate-limit window admitted this request, and how many it has counted. */
  admission?: { admitted: boolean; used: number; category: RateCategory };
  tenant?: Tenant;
  input?: { body: unknown; query: unknown; params: unknown };
  /** The `Idempotency-Key` this request holds (POST and PATCH that send one). */
  idempotency?: KeyRef;
  /** The error code of the answer, when it is an error. */
  errorCode?: string;
  /** Whether the answer was replayed from an idempotency record. */
  replayed?: boolean;
}

export type HttpMiddleware = MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, Context>;

const states = new WeakMap<APIGatewayProxyEventV2, RequestState>();

export const openState = (event: APIGatewayProxyEventV2, state: RequestState): void => void states.set(event, state);

export const stateOf = (request: { event: APIGatewayProxyEventV2 }): RequestState => {
  const state = states.get(request.event);
  if (!state) throw new Error('request state used before the respond middleware opened it');
  return state;
};

/** The state, if the pipeline opened one (the access line reads it after the pipeline ends). */
export const peekState = (event: APIGatewayProxyEventV2): RequestState | undefined => states.get(event);

/** Header lookup tolerant of casing; API Gateway v2 lowercases, other callers may not. */
export const header = (event: APIGatewayProxyEventV2, name: string): string | undefined => {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(event.headers ?? {})) if (key.toLowerCase() === wanted) return value;
  return undefined;
};
