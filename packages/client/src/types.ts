import type { FetchOptions, FetchResponse } from 'openapi-fetch';
import type { paths } from './schema.js';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** Every path serving `M`, without the `/api/v1` prefix the client adds: `'/inbox/conversations/{id}'`. */
export type ApiPath<M extends Method> = {
  [P in keyof paths]: paths[P] extends { [K in M]: unknown } ? (P extends `/api/v1${infer R}` ? R : never) : never;
}[keyof paths];

type FullPath<P extends string> = Extract<keyof paths, `/api/v1${P}`>;

/** The operation behind `M path`, as openapi-typescript generated it from the document. */
export type Operation<M extends Method, P extends string> = paths[FullPath<P>] extends { [K in M]: infer O extends Record<string, unknown> }
  ? O
  : never;

/** What each call may add to the client's settings. */
export interface RequestOptions {
  /** Per attempt, in ms; the client's `timeoutMs` otherwise. */
  timeoutMs?: number;
  /** The `Idempotency-Key` of a POST or PATCH, the same on every retry; one is made when none is given. */
  idempotencyKey?: string;
  /** The workspace this request acts in, instead of the client's. */
  workspaceId?: string;
  /** Retries after the first attempt, instead of the client's `maxRetries`. */
  maxRetries?: number;
}

/** The operation's path, query and body (required when the operation requires them), with the request options. */
export type CallInit<O> = FetchOptions<O> & RequestOptions;
// biome-ignore lint/complexity/noBannedTypes: `{} extends T` is how TypeScript asks "has T no required keys?"
export type CallArgs<O> = {} extends FetchOptions<O> ? [init?: CallInit<O>] : [init: CallInit<O>];

/** The 2xx JSON body: `{success: true, data}`. */
// biome-ignore lint/complexity/noBannedTypes: openapi-fetch's own spelling of "no request options" for this parameter
export type Success<O extends Record<string, unknown>> = NonNullable<FetchResponse<O, {}, 'application/json'>['data']>;

type Data<O extends Record<string, unknown>> = Success<O> extends { data: infer D } ? D : never;

/** The element type of the list in `data` (`data.conversations` for the conversations, …). */
export type ListItem<O extends Record<string, unknown>> = {
  [K in keyof Data<O>]: K extends 'pagination' ? never : Data<O>[K] extends readonly (infer T)[] ? T : never;
}[keyof Data<O>] extends infer T
  ? [T] extends [never]
    ? unknown
    : T
  : never;

type Query<O> = O extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

/** The GET paths that page: their query takes `limit`. */
export type ListPath = {
  [P in ApiPath<'get'>]: [Query<Operation<'get', P>>] extends [never]
    ? never
    : 'limit' extends keyof Query<Operation<'get', P>>
      ? P
      : never;
}[ApiPath<'get'>];
